import type { RuntimeConfig } from './runtimeConfig.js';
import type { SettingKey } from './settings.js';

const HOUR_MS = 3_600_000;

/**
 * When a flag with a start delay (`withStartDelay`) takes effect in a server: the time its layer
 * in force was last set, plus the delay. The switching-on time is the layer's own `updatedAt`
 * (the server's document when it set one, else the default's): no second record to keep in step,
 * and it is erased with the layer. Setting it on while it is on keeps its start (`valueSince`). Null when the flag has no delay or was never set (on from the start).
 */
export async function startsAt(
  config: RuntimeConfig,
  key: SettingKey,
  guildId: string | null,
): Promise<Date | null> {
  const delayKey = config.startDelayOf(key);
  if (!delayKey) return null;
  // When it became on: saving it on again (a form saved twice) does not restart the delay.
  const switchedAt = await config.valueSince(key, guildId);
  if (!switchedAt) return null;
  const hours = Number(await config.get(delayKey, guildId));
  return new Date(switchedAt.getTime() + hours * HOUR_MS);
}
