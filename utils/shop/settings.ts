import {
  channelSetting,
  defineSettings,
  flagSetting,
  perServer,
  type SettingTypesOf,
  wholeNumberSetting,
} from '../../src/runtimeConfig/settings.js';

const d = (key: string) => `shop:settings.${key}`;

/** Each server's shop: open or not, where sales go, what it buys back, how long a trade stays open. */
export const SHOP_SETTINGS = defineSettings('shop', {
  enabled: perServer(flagSetting(d('enabled'), true)),
  sales_to_vault: perServer(flagSetting(d('sales_to_vault'), true)),
  sell_back_pct: perServer(wholeNumberSetting(d('sell_back_pct'), 50, 0, 100)),
  // One select menu lists the whole shelf: Discord allows 25 options in one.
  max_items: perServer(wholeNumberSetting(d('max_items'), 25, 1, 25)),
  channel: channelSetting(d('channel')),
  trade_open_min: wholeNumberSetting(d('trade_open_min'), 15, 1, 24 * 60),
  trade_enabled: perServer(flagSetting(d('trade_enabled'), true)),
});

declare module '../../src/runtimeConfig/settings.js' {
  interface SettingTypes extends SettingTypesOf<typeof SHOP_SETTINGS> {}
}
