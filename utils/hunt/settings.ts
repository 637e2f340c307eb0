import {
  channelSetting,
  defineNamedSettings,
  flagSetting,
  type SettingTypesOf,
  wholeNumberSetting,
} from '../../src/runtimeConfig/settings.js';

const d = (key: string) => `hunt:settings.${key}`;

/**
 * The hunt's settings under the flat keys admins already use, with their defaults (why each:
 * sim/findings/README.md, "Every default and why").
 */
export const HUNT_SETTINGS = defineNamedSettings('hunt', {
  hunt_enabled: flagSetting(d('hunt_enabled'), true),
  place_points_per_score: wholeNumberSetting(d('place_points_per_score'), 10, 0, 1_000_000),
  place_draw_points: wholeNumberSetting(d('place_draw_points'), 25, 0, 1_000_000),
  place_draw_beacon_multiplier: wholeNumberSetting(d('place_draw_beacon_multiplier'), 1, 0, 1),
  place_time_points: wholeNumberSetting(d('place_time_points'), 20, 0, 1_000_000),
  place_time_interval_sec: wholeNumberSetting(d('place_time_interval_sec'), 60, 1, 86_400),
  place_time_max_gap_sec: wholeNumberSetting(d('place_time_max_gap_sec'), 120, 1, 86_400),
  beacon_bonus_weight: wholeNumberSetting(d('beacon_bonus_weight'), 2, 1, 100),
  hunt_window_s: wholeNumberSetting(d('hunt_window_s'), 300, 5, 86_400),
  hunt_draws_per_window: wholeNumberSetting(d('hunt_draws_per_window'), 3, 1, 1_000),
  hunt_beacon_mode: flagSetting(d('hunt_beacon_mode'), false),
  hunt_paths: wholeNumberSetting(d('hunt_paths'), 4, 2, 16),
  hunt_channel: channelSetting(d('hunt_channel')),
});

declare module '../../src/runtimeConfig/settings.js' {
  interface SettingTypes extends SettingTypesOf<typeof HUNT_SETTINGS> {}
}
