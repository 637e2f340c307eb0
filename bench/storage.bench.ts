/**
 * `npm run bench:storage -- [--days 14] [--agents 20] [--seed 1]`: what a community leaves in
 * the database per member and day, and whether the state (everything but the books) stays flat
 * as time goes on. The economy simulation (sim/) runs `days`, then twice as many, each on a
 * fresh database, the hourly retention running as in a bot; then every collection is counted
 * and measured (BSON bytes). The books (the audit records, docs/operating.md, "What is stored, and
 * for how long") are kept for good and grow with the days; the canvas's pixels grow until the
 * canvas is full; everything else must not grow: the last line's `non_audit_ratio` is the second
 * run's non-audit documents over the first's (goal ≤ 1.1).
 * Last line: `storage: member_days=<n> docs_per_member_day=<x> bytes_per_member_day=<y>
 * non_audit_docs_after_retention=<z> non_audit_ratio=<r>` (of the longer run).
 */
import { parseArgs } from 'node:util';
import { BSON, type Db } from 'mongodb';
import { loadBehaviours } from '../sim/behaviours.js';
import { runSimulation } from '../sim/run.js';

/** The books: every record of what happened, kept for good. */
const AUDIT = new Set([
  'ledger_events',
  'ledger_stuck_ops',
  'place_pixel_events',
  'place_bonus_events',
  'place_progress_events',
  'place_rollbacks',
  'games_rounds',
  'games_revealed_seeds',
  'poker_hand_seeds',
  'hunt_drawn_tips',
  'vault_heists',
  'poker_tables',
  'poker_hands',
  'poker_hand_players',
  'bakery_shares',
  'privacy_erasures',
  'schema_migrations',
  // The moderators' audit trail: kept a year, longer than any run, so it grows with the days.
  'admin_audit',
]);
/** The canvas itself: one document per painted pixel, at most its width × height. */
const CANVAS = new Set(['place_pixels']);

interface Measured {
  docs: number;
  bytes: number;
  nonAudit: number;
  byCollection: Map<string, number>;
}

async function measure(db: Db): Promise<Measured> {
  const out: Measured = { docs: 0, bytes: 0, nonAudit: 0, byCollection: new Map() };
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    let docs = 0;
    for await (const doc of db.collection(name).find({})) {
      docs += 1;
      out.bytes += BSON.calculateObjectSize(doc);
    }
    out.docs += docs;
    out.byCollection.set(name, docs);
    if (!AUDIT.has(name) && !CANVAS.has(name)) out.nonAudit += docs;
  }
  return out;
}

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '14' },
    agents: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
  },
});
const days = Number(values.days);
const agents = Number(values.agents);
const behaviours = await loadBehaviours('sim/behaviours.json');
const runs: { days: number; measured: Measured }[] = [];
for (const length of [days, 2 * days]) {
  const started = performance.now();
  let measured: Measured | null = null;
  await runSimulation({
    behaviours,
    days: length,
    agents,
    seed: Number(values.seed),
    inspect: async (db) => {
      measured = await measure(db);
    },
  });
  if (!measured) throw new Error('the run left no database to measure');
  runs.push({ days: length, measured });
  console.log(
    `${length} days of ${agents} members in ${((performance.now() - started) / 1000).toFixed(0)} s: ${(measured as Measured).docs} documents, ${(measured as Measured).nonAudit} of them not the books`,
  );
}
const [short, long] = runs as [(typeof runs)[number], (typeof runs)[number]];
console.log(
  'collection'.padEnd(26),
  `${short.days} days`.padStart(9),
  `${long.days} days`.padStart(9),
  ' kind',
);
for (const name of [...long.measured.byCollection.keys()].sort()) {
  const kind = AUDIT.has(name) ? 'books' : CANVAS.has(name) ? 'canvas' : 'state';
  console.log(
    name.padEnd(26),
    String(short.measured.byCollection.get(name) ?? 0).padStart(9),
    String(long.measured.byCollection.get(name) ?? 0).padStart(9),
    ` ${kind}`,
  );
}
const memberDays = agents * long.days;
const ratio = long.measured.nonAudit / Math.max(1, short.measured.nonAudit);
console.log(
  `storage: member_days=${memberDays} docs_per_member_day=${(long.measured.docs / memberDays).toFixed(1)} bytes_per_member_day=${Math.round(long.measured.bytes / memberDays)} non_audit_docs_after_retention=${long.measured.nonAudit} non_audit_ratio=${ratio.toFixed(2)}`,
);
