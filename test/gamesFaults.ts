/**
 * `npm run test:games-faults -- [--seed n] [--rounds N]`: the crash and race suite of the layer
 * above the ledger (test/support/gamesFaultRun.ts), on its own embedded database server.
 * Last line: `games-faults: rounds=<n> kills=<n> races=<n> stranded=<n> violations=<n>`;
 * exit 1 when anything is stranded or violated.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { startDatabaseServer } from '../src/db/connect.js';
import { createLogger } from '../src/logger.js';
import { runGamesFaults } from './support/gamesFaultRun.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    rounds: { type: 'string', default: '40' },
  },
});
const seed = Number(values.seed);
const rounds = Number(values.rounds);
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(rounds) || rounds < 1) {
  console.error('usage: npm run test:games-faults -- [--seed <integer>] [--rounds <positive integer>]');
  process.exit(2);
}

const config = loadConfig();
const server = await startDatabaseServer(config.mongo, { persistent: false }, createLogger('warn'));
try {
  const started = performance.now();
  const r = await runGamesFaults({ serverUri: server.uri, dbName: `games_faults_${seed}`, seed, rounds });
  for (const v of r.violations) console.log(`VIOLATION ${v}`);
  console.log(
    `seed=${seed} seconds=${((performance.now() - started) / 1000).toFixed(1)} ops=${r.ops} refused=${r.refused} tournaments paid=${r.tournaments.paid} called-off=${r.tournaments.calledOff}`,
  );
  console.log(
    `games-faults: rounds=${r.rounds} kills=${r.kills} races=${r.races} stranded=${r.stranded} violations=${r.violations.length}`,
  );
  process.exitCode = r.violations.length > 0 || r.stranded > 0 ? 1 : 0;
} finally {
  await server.stop();
}
