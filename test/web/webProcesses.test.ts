import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { systemClock } from '../../src/clock.js';
import type { FeedMessage } from '../../utils/web/liveFeed.js';
import { WebService } from '../../utils/web/webService.js';
import { WebStore } from '../../utils/web/webStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type LoggingProcess, startNode } from '../support/nodeProcess.js';
import { eventually } from '../support/webHarness.js';

const t = useTestDatabase('web_processes');
const ANN = '898000000000000001';

/**
 * Two `npm run start:web` processes on one database, as behind a load balancer: a browser
 * signed in through one is signed in on the other, a placement through one reaches the
 * WebSocket clients of the other, and the rate limit is one count across both.
 */
describe('two web processes', () => {
  const processes: LoggingProcess[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    // Each process test has its own range below Linux's ephemeral ports (32768 and up), which
    // outgoing connections may hold: a port taken from there was once already in use
    // (EADDRINUSE). worker 20000-21999, console 22000-23999, web 24000-27999, sharded
    // 28000-29999, bot 30000-31999.
    const base = 24_000 + (process.pid % 2_000) * 2;
    for (const port of [base, base + 1]) {
      const web = startNode(['app/web.ts'], {
        MONGODB_URI: inject('mongoUri'),
        MONGODB_DB_NAME: t.db.databaseName,
        HTTP_PORT: String(port),
        WEB_WRITES_PER_MEMBER_PER_MIN: '5',
        LOG_LEVEL: 'info',
      });
      processes.push(web);
      urls.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(processes.map((p) => p.waitForLog('"event":"web.ready"')));
  }, 90_000);

  const sockets: WebSocket[] = [];

  afterAll(async () => {
    // A failed assertion must not leave a client holding a process's shutdown open.
    for (const ws of sockets) ws.terminate();
    for (const p of processes) if (p.child.exitCode === null) await p.terminate();
  });

  it('GIVEN a session, a placement and a rate limit THEN each holds across both processes', async () => {
    const [a, b] = urls as [string, string];
    const { deps } = makeBotDeps(t);
    await deps.services.place.grant({
      opId: 'two.grant',
      moderatorId: 'test',
      to: ANN,
      amount: 1_000_000,
      reason: '',
    });
    const web = new WebService({ store: new WebStore(t.db), wallClock: systemClock });
    const { token } = await web.createLink({ userId: ANN, name: 'ann', roleIds: [] });
    const login = await fetch(`${a}/place/login`, {
      method: 'POST',
      headers: { origin: a, 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${token}`,
      redirect: 'manual',
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    // Signed in through A, known to B: the session lives in MongoDB.
    const me = await fetch(`${b}/api/place/me`, { headers: { cookie } }).then((r) => r.json());
    expect(me).toMatchObject({ client_id: ANN, points: 1_000 });

    const messages: FeedMessage[] = [];
    const ws = new WebSocket(`${b.replace('http', 'ws')}/api/place/ws?after=0`);
    sockets.push(ws);
    ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
    await new Promise((resolve) => ws.once('open', resolve));

    const place = (url: string, i: number) =>
      fetch(`${url}/api/place/pixel`, {
        method: 'POST',
        headers: {
          origin: url,
          cookie,
          'content-type': 'application/json',
          'idempotency-key': `two-proc-${i}`,
        },
        body: JSON.stringify({ x: i, y: 7, color_index: 12 }),
      });
    // The limit counts per clock minute: six requests that straddle a minute's turn (a busy
    // machine is slow) would be counted in two. Start them with most of a minute ahead.
    await eventually(() => Date.now() % 60_000 < 30_000, 40_000);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await place(i % 2 === 0 ? a : b, i)).status);
    // Five writes a minute per member, counted once for both processes.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // The placements made through A reach B's WebSocket client, in order, each once.
    const seen = () =>
      messages.flatMap((m) => (m.type === 'changes' ? m.changes.map((c) => [c[1], c[2]]) : []));
    await eventually(() => seen().length === 5);
    expect(seen()).toEqual([0, 1, 2, 3, 4].map((x) => [x, 7]));
    ws.close();
  });
});
