import {
  channelSetting,
  defineSettings,
  flagSetting,
  perServer,
  type SettingTypesOf,
  wholeNumberSetting,
  withStartDelay,
} from '../../src/runtimeConfig/settings.js';

const d = (key: string) => `cookies:settings.${key}`;

/** Every constant of giving, collecting and stealing; COOKIE_LOGIC.md explains each. */
export const COOKIES_SETTINGS = defineSettings('cookies', {
  give_enabled: perServer(flagSetting(d('give_enabled'), true)),
  give_max: wholeNumberSetting(d('give_max'), 1_000_000, 1, 1_000_000_000_000),
  give_receive_daily_max: wholeNumberSetting(d('give_receive_daily_max'), 10_000_000, 0, 1_000_000_000_000),
  leaderboard_size: wholeNumberSetting(d('leaderboard_size'), 10, 3, 25),
  leaderboard_cooldown_s: wholeNumberSetting(d('leaderboard_cooldown_s'), 10, 0, 3_600),
  collect_enabled: perServer(flagSetting(d('collect_enabled'), true)),
  collect_cooldown_s: wholeNumberSetting(d('collect_cooldown_s'), 3_600, 0, 7 * 86_400),
  collect_min: wholeNumberSetting(d('collect_min'), 40, 1, 1_000_000),
  collect_max: wholeNumberSetting(d('collect_max'), 60, 1, 1_000_000),
  collect_streak_bonus_pct: wholeNumberSetting(d('collect_streak_bonus_pct'), 10, 0, 100),
  collect_streak_max_days: wholeNumberSetting(d('collect_streak_max_days'), 7, 0, 365),
  reminder_streak_h: wholeNumberSetting(d('reminder_streak_h'), 4, 1, 23),
  steal_enabled: perServer(
    withStartDelay(flagSetting(d('steal_enabled'), true), 'cookies.steal_start_delay_h'),
  ),
  steal_start_delay_h: perServer(wholeNumberSetting(d('steal_start_delay_h'), 24, 0, 24 * 30)),
  passive_min_h: wholeNumberSetting(d('passive_min_h'), 24, 0, 24 * 30),
  steal_cooldown_s: wholeNumberSetting(d('steal_cooldown_s'), 1_800, 0, 7 * 86_400),
  steal_protection_h: wholeNumberSetting(d('steal_protection_h'), 24, 0, 24 * 90),
  steal_min_victim_balance: wholeNumberSetting(d('steal_min_victim_balance'), 100, 1, 1_000_000_000),
  steal_base_chance_pct: wholeNumberSetting(d('steal_base_chance_pct'), 40, 0, 100),
  steal_min_chance_pct: wholeNumberSetting(d('steal_min_chance_pct'), 10, 0, 100),
  steal_max_chance_pct: wholeNumberSetting(d('steal_max_chance_pct'), 70, 0, 100),
  steal_wealth_weight_pct: wholeNumberSetting(d('steal_wealth_weight_pct'), 50, 0, 200),
  steal_heat_penalty_pct: wholeNumberSetting(d('steal_heat_penalty_pct'), 25, 0, 100),
  steal_heat_window_min: wholeNumberSetting(d('steal_heat_window_min'), 60, 1, 24 * 60),
  steal_loot_pct: wholeNumberSetting(d('steal_loot_pct'), 4, 1, 100),
  steal_max_loot: wholeNumberSetting(d('steal_max_loot'), 2_000, 1, 1_000_000_000),
  steal_hourly_budget: wholeNumberSetting(d('steal_hourly_budget'), 5_000, 1, 1_000_000_000),
  steal_fine_pct: wholeNumberSetting(d('steal_fine_pct'), 5, 0, 100),
  steal_fine_min: wholeNumberSetting(d('steal_fine_min'), 20, 0, 1_000_000_000),
  steal_fine_max: wholeNumberSetting(d('steal_fine_max'), 1_000, 0, 1_000_000_000),
  steal_allowance_pct: wholeNumberSetting(d('steal_allowance_pct'), 50, 0, 1_000),
  steal_allowance_max: wholeNumberSetting(d('steal_allowance_max'), 1_000, 0, 1_000_000_000),
  bakery_share_pct: wholeNumberSetting(d('bakery_share_pct'), 80, 0, 100),
  bakery_share_above_reserve_x: wholeNumberSetting(d('bakery_share_above_reserve_x'), 3, 1, 1_000),
  bakery_channel: channelSetting(d('bakery_channel')),
  supply_growth_target_bp: wholeNumberSetting(d('supply_growth_target_bp'), 125, 0, 10_000),
  collect_rate_min_pct: wholeNumberSetting(d('collect_rate_min_pct'), 25, 1, 100),
});

declare module '../../src/runtimeConfig/settings.js' {
  interface SettingTypes extends SettingTypesOf<typeof COOKIES_SETTINGS> {}
}
