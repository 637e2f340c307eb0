import {
  channelSetting,
  defineSettings,
  flagSetting,
  perServer,
  type SettingTypesOf,
  wholeNumberSetting,
} from '../../src/runtimeConfig/settings.js';

const d = (key: string) => `vault:settings.${key}`;

/** The vault's liquidity share and every constant of the heist (COOKIE_LOGIC.md). */
export const VAULT_SETTINGS = defineSettings('vault', {
  payout_share_pct: wholeNumberSetting(d('payout_share_pct'), 5, 1, 100),
  heist_enabled: perServer(flagSetting(d('heist_enabled'), true)),
  heist_window_s: wholeNumberSetting(d('heist_window_s'), 120, 10, 3_600),
  heist_cooldown_s: wholeNumberSetting(d('heist_cooldown_s'), 3_600, 0, 7 * 86_400),
  heist_min_stake: wholeNumberSetting(d('heist_min_stake'), 50, 1, 1_000_000_000),
  heist_min_crew: wholeNumberSetting(d('heist_min_crew'), 2, 1, 50),
  heist_max_crew: wholeNumberSetting(d('heist_max_crew'), 10, 1, 50),
  heist_base_chance_pct: wholeNumberSetting(d('heist_base_chance_pct'), 15, 0, 100),
  heist_chance_per_member_pct: wholeNumberSetting(d('heist_chance_per_member_pct'), 5, 0, 100),
  heist_max_chance_pct: wholeNumberSetting(d('heist_max_chance_pct'), 50, 0, 100),
  heist_loot_pct: wholeNumberSetting(d('heist_loot_pct'), 2, 1, 100),
  heist_stake_multiplier: wholeNumberSetting(d('heist_stake_multiplier'), 3, 1, 100),
  heist_max_loot: wholeNumberSetting(d('heist_max_loot'), 5_000, 1, 1_000_000_000),
  heist_channel: channelSetting(d('heist_channel')),
});

declare module '../../src/runtimeConfig/settings.js' {
  interface SettingTypes extends SettingTypesOf<typeof VAULT_SETTINGS> {}
}
