import {
  defineSettings,
  flagSetting,
  perServer,
  type SettingTypesOf,
  wholeNumberSetting,
} from '../../src/runtimeConfig/settings.js';

const d = (key: string) => `poker:settings.${key}`;

/** Every constant of the poker tables (COOKIE_LOGIC.md, "Poker"). */
export const POKER_SETTINGS = defineSettings('poker', {
  enabled: perServer(flagSetting(d('enabled'), true)),
  small_blind: wholeNumberSetting(d('small_blind'), 5, 1, 1_000_000),
  max_buy_in: wholeNumberSetting(d('max_buy_in'), 1_000, 1, 1_000_000_000),
  min_buy_in_bb: wholeNumberSetting(d('min_buy_in_bb'), 20, 1, 1_000),
  turn_s: wholeNumberSetting(d('turn_s'), 60, 10, 3_600),
  start_delay_s: wholeNumberSetting(d('start_delay_s'), 60, 0, 3_600),
  next_hand_s: wholeNumberSetting(d('next_hand_s'), 5, 0, 600),
  idle_close_s: wholeNumberSetting(d('idle_close_s'), 900, 60, 7 * 86_400),
  rake_pct: wholeNumberSetting(d('rake_pct'), 0, 0, 10),
  rake_cap: wholeNumberSetting(d('rake_cap'), 100, 0, 1_000_000),
  sng_stack: wholeNumberSetting(d('sng_stack'), 1_500, 100, 1_000_000),
  sng_small_blind: wholeNumberSetting(d('sng_small_blind'), 10, 1, 100_000),
  sng_level_s: wholeNumberSetting(d('sng_level_s'), 300, 60, 3_600),
});

declare module '../../src/runtimeConfig/settings.js' {
  interface SettingTypes extends SettingTypesOf<typeof POKER_SETTINGS> {}
}
