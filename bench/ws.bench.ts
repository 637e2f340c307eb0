/**
 * `npm run bench:ws`: the live canvas under load. A web process (`app/web.ts`) serves the
 * API and the WebSocket; client processes hold 1,500 WebSocket clients; this process makes
 * placements through the API at a steady rate (200/s for 10 s by default, after 5 s of the
 * same as warm-up) as signed-in members. For every placement and every client: the time from the placement's commit (its
 * API reply) to its arrival at the client. The goal on this machine: p99 ≤ 250 ms at 200/s.
 * Last line: `ws: clients=<n> p50_ms=<…> p99_ms=<…> placements_per_s=<…>`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBotDeps } from '../app/botDeps.js';
import type { AppDeps } from '../app/openApp.js';
import { appCollections, ensureAppIndexes } from '../app/openApp.js';
import { ASSEMBLY } from '../commands/index.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { connectDatabase, startDatabaseServer } from '../src/db/connect.js';
import { createLogger } from '../src/logger.js';
import { cryptoRng } from '../src/rng.js';
import { Ledger } from '../utils/money/ledger/ledger.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1_500);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const CLIENT_PROCESSES = 3;
const MEMBERS = 20;
const PORT = 30_000 + (process.pid % 20_000);
const BASE = `http://127.0.0.1:${PORT}`;
const TSX = ['--import', 'tsx'];

const config = loadConfig();
const log = createLogger('warn');
const server = await startDatabaseServer(config.mongo, { persistent: false }, log);
const dbName = `bench_ws_${randomBytes(4).toString('hex')}`;
const { client, db } = await connectDatabase(server.uri, dbName);
await ensureAppIndexes(db);
const children: ChildProcess[] = [];
try {
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

  // The web process, with limits that let one machine play 1,500 browsers and 20 members.
  const web = spawn(process.execPath, [...TSX, 'app/web.ts'], {
    env: {
      ...process.env,
      MONGODB_URI: server.uri,
      MONGODB_DB_NAME: dbName,
      HTTP_PORT: String(PORT),
      LOG_LEVEL: 'warn',
      WS_MAX_PLACE_CONNECTIONS: String(CLIENTS + 100),
      WS_HANDSHAKES_PER_IP_PER_MIN: '1000000',
      WEB_WRITES_PER_MEMBER_PER_MIN: '1000000',
      WEB_WRITES_PER_IP_PER_MIN: '1000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(web);
  for (let i = 0; ; i++) {
    if ((await fetch(`${BASE}/healthz`).catch(() => null))?.ok) break;
    if (i > 600) throw new Error('the web process did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // Signed-in members with points.
  const cookies: string[] = [];
  for (let m = 0; m < MEMBERS; m++) {
    const id = `9${String(m).padStart(17, '0')}`;
    await deps.services.place.grant({
      opId: `seed-${m}`,
      moderatorId: 'bench',
      to: id,
      amount: 1e9,
      reason: '',
    });
    const { token } = await deps.services.web.createLink({ userId: id, name: `m${m}`, roleIds: [] });
    const login = await fetch(`${BASE}/place/login`, {
      method: 'POST',
      headers: { origin: BASE, 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${token}`,
      redirect: 'manual',
    });
    cookies.push((login.headers.get('set-cookie') ?? '').split(';')[0] as string);
  }

  // The clients, in their own processes.
  const dir = mkdtempSync(join(tmpdir(), 'bench-ws-'));
  const files = Array.from({ length: CLIENT_PROCESSES }, (_, i) => join(dir, `arrivals-${i}.bin`));
  const per = Math.ceil(CLIENTS / CLIENT_PROCESSES);
  const holders = files.map((file, i) => {
    const count = Math.min(per, CLIENTS - i * per);
    const child = spawn(
      process.execPath,
      [...TSX, 'bench/wsClients.ts', `${BASE.replace('http', 'ws')}/api/place/ws`, String(count), file],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    return new Promise<void>((resolve) =>
      child.stdout?.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()),
    );
  });
  await Promise.all(holders);
  await new Promise((resolve) => setTimeout(resolve, 500));

  /** Placements at a steady rate; each commit time is when its reply arrives. */
  const placeAtRate = async (phase: string, seconds: number) => {
    const commits = new Map<number, number>();
    const replies: number[] = [];
    const total = RATE * seconds;
    const started = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const sent = performance.now();
      inFlight.push(
        fetch(`${BASE}/api/place/pixel`, {
          method: 'POST',
          headers: {
            origin: BASE,
            cookie: cookies[i % MEMBERS] as string,
            'content-type': 'application/json',
            'idempotency-key': `bench-${phase}-${i}`,
          },
          body: JSON.stringify({ x: i % 256, y: Math.floor(i / 256) % 256, color_index: i % 32 }),
        }).then(async (response) => {
          const at = performance.timeOrigin + performance.now();
          const body = (await response.json()) as { revision?: number };
          if (!response.ok || body.revision === undefined)
            throw new Error(`placement ${i}: ${JSON.stringify(body)}`);
          commits.set(body.revision, at);
          replies.push(performance.now() - sent);
        }),
      );
    }
    await Promise.all(inFlight);
    return { commits, replies, total, elapsed: (performance.now() - started) / 1000 };
  };
  // Both processes JIT-compile their hot paths first (a server in service is warm); the
  // clients' arrivals from the warm-up have no commit below and are left out.
  await placeAtRate('warm', WARMUP_SECONDS);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const { commits, replies, total, elapsed } = await placeAtRate('measured', SECONDS);
  await new Promise((resolve) => setTimeout(resolve, 1_500));

  // Arrivals from every client process.
  const revisions = [...commits.keys()].sort((a, b) => a - b);
  /** The index of the first measured revision above `revision` (binary search). */
  const firstAfter = (revision: number) => {
    let [low, high] = [0, revisions.length];
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((revisions[mid] as number) <= revision) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  const latencies: number[] = [];
  let delivered = 0;
  for (const [i, child] of children.slice(1).entries()) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    const triples = new Float64Array(readFileSync(files[i] as string).buffer.slice(0));
    for (let k = 0; k < triples.length; k += 3) {
      const [from, to, arrived] = [triples[k], triples[k + 1], triples[k + 2]] as [number, number, number];
      // The measured placements in this batch: revisions in (from, to].
      for (let at = firstAfter(from); at < revisions.length && (revisions[at] as number) <= to; at++) {
        const commit = commits.get(revisions[at] as number) as number;
        delivered++;
        // A message can beat the HTTP reply to the same placement: that is 0 ms of waiting.
        // Measured from the placement's own reply, this includes any wait for earlier
        // revisions to commit (the feed never skips one).
        latencies.push(Math.max(0, arrived - commit));
      }
    }
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    (latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? Number.NaN).toFixed(1);
  replies.sort((a, b) => a - b);
  const replyAt = (p: number) => (replies[Math.floor(p * replies.length)] ?? Number.NaN).toFixed(1);
  console.log(`placement replies (POST /api/place/pixel): p50_ms=${replyAt(0.5)} p99_ms=${replyAt(0.99)}`);
  const expected = commits.size * CLIENTS;
  console.log(
    `delivered ${delivered} of ${expected} (placement, client) arrivals; ${commits.size} placements in ${elapsed.toFixed(1)} s`,
  );
  console.log(
    `ws: clients=${CLIENTS} p50_ms=${pct(0.5)} p99_ms=${pct(0.99)} placements_per_s=${(total / elapsed).toFixed(0)}`,
  );
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await client.close();
  await server.stop();
}
