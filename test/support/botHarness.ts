import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import type { Collections } from '../../src/db/collections.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { createLogger } from '../../src/logger.js';
import { ProfileDirectory } from '../../src/profiles/profileDirectory.js';
import { cryptoRng } from '../../src/rng.js';
import { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { Ledger } from '../../utils/ledger/ledger.js';

export const ADMIN_ID = '800000000000000001';
export const MEMBER_ID = '800000000000000002';
export const OTHER_ID = '800000000000000003';

/** Bot deps over a test database, with every log line kept in `logs` for assertions. */
export function makeBotDeps(cols: Collections): {
  deps: BotDeps;
  logs: Record<string, unknown>[];
  clock: ManualClock;
} {
  const logs: Record<string, unknown>[] = [];
  const log = createLogger('info', { write: (line: string) => logs.push(JSON.parse(line)) });
  const config = loadConfig({ ADMIN_USER_IDS: ADMIN_ID, RUNTIME_CONFIG_TTL_MS: '0' });
  const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));
  const base = { cols, clock, log };
  const deps: BotDeps = {
    config,
    log,
    clock,
    rng: cryptoRng,
    cols,
    ledger: new Ledger({ ...base, rng: cryptoRng, config: config.ledger }),
    runtimeConfig: new RuntimeConfig(base, config.runtimeConfigTtlMs),
    profiles: new ProfileDirectory(base),
  };
  return { deps, logs, clock };
}
