import {
  defineSettings,
  flagSetting,
  type SettingTypesOf,
  wholeNumberSetting,
} from '../../src/runtimeConfig/settings.js';

export const COOKIES_SETTINGS = defineSettings('cookies', {
  give_enabled: flagSetting('cookies:settings.give_enabled', true),
  give_max: wholeNumberSetting('cookies:settings.give_max', 1_000_000, 1, 1_000_000_000_000),
  leaderboard_size: wholeNumberSetting('cookies:settings.leaderboard_size', 10, 3, 25),
  leaderboard_cooldown_s: wholeNumberSetting('cookies:settings.leaderboard_cooldown_s', 10, 0, 3_600),
});

declare module '../../src/runtimeConfig/settings.js' {
  interface SettingTypes extends SettingTypesOf<typeof COOKIES_SETTINGS> {}
}
