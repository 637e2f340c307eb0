import type { Config } from '../../src/config.js';
import {
  channelSetting,
  defineNamedSettings,
  flagSetting,
  roleSetting,
  type SettingTypesOf,
  wholeNumberSetting,
} from '../../src/runtimeConfig/settings.js';

const d = (key: string) => `place:settings.${key}`;

/** The canvas's settings, under the flat keys admins already use. */
export const PLACE_SETTINGS = defineNamedSettings('place', {
  place_enabled: flagSetting(d('place_enabled'), true),
  place_pixel_cost: wholeNumberSetting(d('place_pixel_cost'), 100, 1, 1_000_000),
  place_post_interval_min: wholeNumberSetting(d('place_post_interval_min'), 30, 1, 24 * 60),
  place_channel: channelSetting(d('place_channel')),
  place_feed_channel: channelSetting(d('place_feed_channel')),
  place_template_role: roleSetting(d('place_template_role')),
});

/** DEFAULT_PLACE_ENABLED and DEFAULT_PLACE_PIXEL_COST are the settings' defaults. */
export function placeSettingDefaults(config: Config): Record<string, unknown> {
  return { place_enabled: config.place.enabled, place_pixel_cost: config.place.pixelCost };
}

declare module '../../src/runtimeConfig/settings.js' {
  interface SettingTypes extends SettingTypesOf<typeof PLACE_SETTINGS> {}
}
