import { channelSetting, defineSettings, type SettingTypesOf } from '../../src/runtimeConfig/settings.js';

export const ADMIN_SETTINGS = defineSettings('admin', {
  audit_channel: channelSetting('admin:settings.audit_channel'),
});

declare module '../../src/runtimeConfig/settings.js' {
  interface SettingTypes extends SettingTypesOf<typeof ADMIN_SETTINGS> {}
}
