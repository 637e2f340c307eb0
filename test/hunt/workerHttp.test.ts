import { beforeEach, describe, expect, it } from 'vitest';
import { buildHttpApp } from '../../src/http/server.js';
import { cryptoRng, type Rng } from '../../src/rng.js';
import { huntRoutes } from '../../utils/hunt/httpRoutes.js';
import { signedHeaders, splitUrl } from '../../utils/hunt/signing.js';
import { makeBotDeps } from '../support/botHarness.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { runNode } from '../support/nodeProcess.js';

const t = useTestDatabase('hunt_http');
const OWNER = '894000000000000001';
const low: Rng = { ...cryptoRng, int: (min) => min };
let nonce = 0;

function signed(
  worker: { _id: string; secret: string },
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  now: number,
  reuse?: string,
) {
  const text = body === undefined ? '' : JSON.stringify(body);
  const n = reuse ?? `nonce-${String(nonce++).padStart(12, '0')}`;
  return {
    method,
    url: path,
    payload: body === undefined ? undefined : text,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...signedHeaders(worker._id, worker.secret, {
        method,
        ...splitUrl(path),
        timestamp: String(now),
        nonce: n,
        body: text,
      }),
    },
  };
}

describe('workers over HTTP', () => {
  beforeEach(() => clearDatabase(t.db));

  it("GIVEN a linked worker THEN its signed tips count, its rewards land in the owner's wallet with the worker as source, and bad requests record nothing", async () => {
    const { deps, clock } = makeBotDeps(t, { rng: low });
    // Worked numbers at 100 points per score point, ten times the default, for plain rewards.
    await deps.runtimeConfig.set('place_points_per_score', '100', 'admin');
    const worker = await deps.services.workers.link(OWNER, 'cli');
    const app = buildHttpApp([huntRoutes(deps.services)], { describe: (error) => error.message });
    // Workers sign with real time; the bot's business clock (here months away) does not judge them.
    const now = () => Date.now();

    const tip = await app.inject(
      signed(worker, 'POST', '/api/hunt/tip', { guess: [1, 1, 1, 1, 1, 1, 1, 1] }, now()),
    );
    expect(tip.statusCode).toBe(200);
    expect(tip.json()).toMatchObject({ sequence: 1, round: 1, revision: 1 });

    // Refused, and nothing recorded: a replayed nonce, an old timestamp, a wrong secret, a stranger.
    const replay = signed(
      worker,
      'POST',
      '/api/hunt/tip',
      { guess: [2, 2, 2, 2, 2, 2, 2, 2] },
      now(),
      'nonce-000000000000',
    );
    const refusal = (response: {
      statusCode: number;
      json(): { error: { code: string; reason: string } };
    }) => [response.statusCode, response.json().error.code, response.json().error.reason];
    expect(refusal(await app.inject(replay))).toEqual([401, 'WORKER_REFUSED', 'replayed_nonce']);
    expect(
      refusal(
        await app.inject(
          signed(worker, 'POST', '/api/hunt/tip', { guess: [2, 2, 2, 2, 2, 2, 2, 2] }, now() - 120_000),
        ),
      ),
    ).toEqual([401, 'WORKER_REFUSED', 'stale_timestamp']);
    expect(
      refusal(
        await app.inject(signed({ ...worker, secret: 'wrong' }, 'GET', '/api/hunt/status', undefined, now())),
      ),
    ).toEqual([401, 'WORKER_REFUSED', 'bad_signature']);
    expect(
      refusal(
        await app.inject(
          signed({ _id: 'w-nobody', secret: 'x' }, 'GET', '/api/hunt/status', undefined, now()),
        ),
      ),
    ).toEqual([401, 'WORKER_REFUSED', 'unknown_worker']);
    // Signed, but a bad tip: refused as bad input, and its nonce is not used up.
    const badTip = signed(
      worker,
      'POST',
      '/api/hunt/tip',
      { guess: [1, 2, 3] },
      now(),
      'nonce-badtip-00000001',
    );
    const bad = await app.inject(badTip);
    expect([bad.statusCode, bad.json().error.code, bad.json().error.message]).toEqual([
      400,
      'BAD_REQUEST',
      'guess: 8 whole numbers from 0 to 99',
    ]);
    const status = await app.inject(signed(worker, 'GET', '/api/hunt/status', undefined, now()));
    // `revision` and `beaconPath` repeat `round` and `bonusPath` until the next version.
    expect(status.json()).toMatchObject({
      owner: OWNER,
      round: 1,
      revision: 1,
      bonusPath: null,
      beaconPath: null,
      pending: { sequence: 1, guess: [1, 1, 1, 1, 1, 1, 1, 1] },
    });

    const closesAt = new Date(tip.json().closesAt).getTime();
    clock.advance(closesAt - clock.now().getTime());
    await deps.scheduler.runDue();
    await deps.ledger.flush();
    // Drawn (the only tip): 25 draw points + 96.96 score points × 100 (8 off in 264), all to the owner.
    expect(await deps.ledger.balanceOf('place', worker._id)).toBe(0);
    expect(await deps.ledger.balanceOf('place', OWNER)).toBe(25_000 + 9_696_000);
    const events = await t.cols.ledgerEvents.find({ currency: 'place', account: OWNER }).toArray();
    expect(events.map((e) => e.source)).toEqual([worker._id, worker._id]);

    // Unlinked: refused.
    await deps.services.workers.unlink(OWNER, worker._id);
    expect(refusal(await app.inject(signed(worker, 'GET', '/api/hunt/status', undefined, now())))).toEqual([
      401,
      'WORKER_REFUSED',
      'unknown_worker',
    ]);
    await app.close();
  });
});

describe('the reference worker (npm run worker)', () => {
  beforeEach(() => clearDatabase(t.db));
  it('GIVEN a real worker process against the HTTP server THEN its signed tips reach the hunt', async () => {
    // The server's business clock stands months away and still; the worker signs with real time.
    const { deps } = makeBotDeps(t);
    const worker = await deps.services.workers.link(OWNER, 'cli');
    const app = buildHttpApp([huntRoutes(deps.services)], { describe: (error) => error.message });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      // One window (the clock stands still), one tip.
      const { stdout, code } = await runNode([
        'app/worker.ts',
        '--url',
        url,
        '--id',
        worker._id,
        '--secret',
        worker.secret,
        '--tips',
        '1',
        '--poll-ms',
        '50',
      ]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/tip #1 for the window closing .*: (\d{1,2},){7}\d{1,2}/);
      expect(stdout).toContain('worker: 1 tips sent');
      const status = await deps.services.hunt.status(worker._id);
      expect(status.tip).toMatchObject({ identity: worker._id, sequence: 1, status: 'pending' });
    } finally {
      await app.close();
    }
  });
});

describe('an admin grant to a worker', () => {
  it('GIVEN a worker id THEN the points land in its owner’s wallet, exact to 0.001, with the worker as the source', async () => {
    const c = makeConsole(t);
    const you = c.identities.get('you').id;
    const worker = await c.deps.services.workers.link(you, 'cli');
    await c.session.run(
      `as admin /admin place grant points:12.345 worker:${worker._id} reason:"event bonus"`,
    );
    expect(c.take()).toContain('Granted 12.345 points to @you');
    await c.deps.ledger.flush();
    expect(await c.deps.ledger.balanceOf('place', you)).toBe(12_345);
    expect(await c.deps.ledger.balanceOf('place', worker._id)).toBe(0);
    const [event] = await t.cols.ledgerEvents.find({ currency: 'place', account: you }).toArray();
    expect(event).toMatchObject({ source: worker._id, kind: 'place.admin_grant', delta: 12_345 });
    const [bonus] = await c.deps.services.hunt.earnings(10, you);
    expect(bonus).toMatchObject({ kind: 'admin', source: worker._id, owner: you, milli: 12_345 });
  });
});

describe('a worker unlinked between its tip and the draw', () => {
  it('GIVEN a pending tip of a worker that is then unlinked THEN its draw reward still lands in the owner’s wallet, and the worker can grant nothing more', async () => {
    const c = makeConsole(t);
    const you = c.identities.get('you').id;
    c.clock.advance(86_400_000); // a window of its own, after those of the tests above
    const worker = await c.deps.services.workers.link(you, 'old laptop');
    const { window } = await c.deps.services.hunt.tip(worker._id, [1, 2, 3, 4, 5, 6, 7, 8], null);
    expect(await c.deps.services.workers.unlink(you, worker._id)).toBe(true);
    c.clock.advance(window.closesAt.getTime() - c.clock.now().getTime());
    await c.deps.scheduler.runDue();
    await c.deps.ledger.flush();
    const events = await c.deps.services.hunt.earnings(10, you);
    expect(events.filter((e) => e.source === worker._id)).toHaveLength(1);
    const draw = events.find((e) => e.source === worker._id);
    expect(draw).toMatchObject({ kind: 'draw', source: worker._id, owner: you, milli: 25_000 });
    expect(await c.deps.ledger.balanceOf('place', worker._id)).toBe(0);
    await c.session.run(`as admin /admin place grant points:5 worker:${worker._id}`);
    expect(c.take()).toContain(worker._id);
    await c.deps.ledger.flush();
    expect(await c.deps.ledger.balanceOf('place', worker._id)).toBe(0);
  });
});
