import {
  defineSettings,
  flagSetting,
  perServer,
  type SettingTypesOf,
  wholeNumberSetting,
} from '../../src/runtimeConfig/settings.js';

const d = (key: string) => `games:settings.${key}`;

export const GAMES_SETTINGS = defineSettings('games', {
  enabled: perServer(flagSetting(d('enabled'), true)),
  min_bet: wholeNumberSetting(d('min_bet'), 10, 1, 1_000_000_000),
  max_bet: wholeNumberSetting(d('max_bet'), 100_000, 1, 1_000_000_000_000),
  blackjack_timeout_s: wholeNumberSetting(d('blackjack_timeout_s'), 600, 30, 86_400),
});

declare module '../../src/runtimeConfig/settings.js' {
  interface SettingTypes extends SettingTypesOf<typeof GAMES_SETTINGS> {}
}
