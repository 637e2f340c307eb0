import {
  defineSettings,
  flagSetting,
  type SettingTypesOf,
  wholeNumberSetting,
} from '../../src/runtimeConfig/settings.js';

export const COOKIES_SETTINGS = defineSettings('cookies', {
  give_enabled: flagSetting('Members can give Cookies to each other', true),
  give_max: wholeNumberSetting('Most Cookies one /cookies give may send', 1_000_000, 1, 1_000_000_000_000),
  leaderboard_size: wholeNumberSetting('Rows on the /cookies leaderboard image', 10, 3, 25),
  leaderboard_cooldown_s: wholeNumberSetting(
    'Seconds a member waits between two /cookies leaderboard images (0: no wait)',
    10,
    0,
    3_600,
  ),
});

declare module '../../src/runtimeConfig/settings.js' {
  interface SettingTypes extends SettingTypesOf<typeof COOKIES_SETTINGS> {}
}
