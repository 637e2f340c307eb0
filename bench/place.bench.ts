/**
 * `npm run bench:place`: the canvas's two costs, in one process against the bot's database
 * selection (MONGODB_URI, else embedded), in memory.
 *
 * - Render: the full 256×256 canvas scaled ×4 to the indexed PNG as posted (median of runs),
 *   against the machine's floor for that image: `zlib.deflateSync` of the same ×4 upscaled
 *   1-byte index buffer (what any PNG of it must at least do).
 * - Placements: sustained placements, 32 in flight, 200 members, against raw driver
 *   `updateOne` calls with the same concurrency in the same run.
 * - The renderer's memory for a 2048×2048 board.
 * Last line: `place: render_ms=… limit_ms=… render/limit=… placements_per_s=… placement/raw=… board_mb_2048=…`.
 */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { createBotDeps } from '../app/botDeps.js';
import type { AppDeps } from '../app/openApp.js';
import { appCollections, ensureAppIndexes } from '../app/openApp.js';
import { ASSEMBLY } from '../commands/index.js';
import { systemClock } from '../src/clock.js';
import { runPool } from '../src/concurrency.js';
import { loadConfig } from '../src/config.js';
import { connectDatabase, describeServer, startDatabaseServer } from '../src/db/connect.js';
import { createLogger } from '../src/logger.js';
import { pngPalette, renderCanvasPng, upscale } from '../src/render/placeImages.js';
import { cryptoRng } from '../src/rng.js';
import { Ledger } from '../utils/money/ledger/ledger.js';
import { PlaceBoard } from '../utils/place/board.js';
import { PALETTE, rgb } from '../utils/place/palette.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const PLACEMENTS = Number(process.env.BENCH_OPS ?? 2_000);
const IN_FLIGHT = 32;
const MEMBERS = 200;

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

// --- Render against the floor ---
const board = new PlaceBoard(256, 256);
for (let i = 0; i < board.pixels.length; i++) board.pixels[i] = (i * 2654435761) % PALETTE.length;
const palette = pngPalette(PALETTE.map((_, i) => rgb(i)));
const renders: number[] = [];
const limits: number[] = [];
await renderCanvasPng(board, palette, 4);
for (let run = 0; run < RUNS; run++) {
  let t = process.hrtime.bigint();
  await renderCanvasPng(board, palette, 4);
  renders.push(ms(t));
  t = process.hrtime.bigint();
  deflateSync(upscale(board.pixels, 256, 256, 4));
  limits.push(ms(t));
}

// --- Placements against raw updates ---
const config = loadConfig();
const log = createLogger('warn');
const server = await startDatabaseServer(config.mongo, { persistent: false }, log);
const { client, db } = await connectDatabase(server.uri, `bench_${randomBytes(4).toString('hex')}`);
await ensureAppIndexes(db);
await ASSEMBLY.ensureIndexes(db);
const cols = appCollections(db);
const ledger = new Ledger({ cols, clock: systemClock, rng: cryptoRng, log, config: config.ledger });
const app: AppDeps = {
  config,
  log,
  clock: systemClock,
  wallClock: systemClock,
  rng: cryptoRng,
  db,
  cols,
  ledger,
};
const deps = createBotDeps(app, ASSEMBLY, { transport: { send: async () => {}, edit: async () => {} } });
const member = (i: number) => `9${String(i % MEMBERS).padStart(17, '0')}`;
await runPool(MEMBERS, IN_FLIGHT, (i) =>
  deps.services.place.grant({
    opId: `seed-${i}`,
    moderatorId: 'bench',
    to: member(i),
    amount: 1e9,
    reason: '',
  }),
);
const raw = db.collection<{ _id: string; n: number }>('bench_raw', { writeConcern: { w: 1, journal: true } });
await raw.insertMany(Array.from({ length: MEMBERS }, (_, i) => ({ _id: member(i), n: 0 })));

async function rate(ops: number, task: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  const results = await runPool(ops, IN_FLIGHT, task);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return ops / (ms(start) / 1000);
}
let next = 0;
const place = () => {
  const base = next;
  next += PLACEMENTS;
  return rate(PLACEMENTS, (i) =>
    deps.services.place.place({
      opId: `b${base + i}`,
      userId: member(base + i),
      x: (base + i) % 256,
      y: ((base + i) * 7) % 256,
      color: (base + i) % 32,
    }),
  );
};
const rawRate = () => rate(PLACEMENTS, (i) => raw.updateOne({ _id: member(i) }, { $inc: { n: 1 } }));
await place();
await rawRate();
const ratios: number[] = [];
const placeRates: number[] = [];
for (let round = 0; round < 3; round++) {
  const r = await rawRate();
  const p = await place();
  placeRates.push(p);
  ratios.push(p / r);
}
await ledger.flush();

const big = new PlaceBoard(2_048, 2_048);
const boardMb = big.pixels.byteLength / (1024 * 1024);
const renderMs = median(renders);
const limitMs = median(limits);
console.log(
  `server: ${describeServer(server)}; ${RUNS} renders, 3 rounds of ${PLACEMENTS} placements and raw updates`,
);
console.log(
  `place: render_ms=${renderMs.toFixed(2)} limit_ms=${limitMs.toFixed(2)} render/limit=${(renderMs / limitMs).toFixed(2)} ` +
    `placements_per_s=${Math.round(median(placeRates))} placement/raw=${median(ratios).toFixed(3)} board_mb_2048=${boardMb.toFixed(1)}`,
);
await client.close();
await server.stop();
