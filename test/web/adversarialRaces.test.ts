import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';
import { until } from './adversarialSupport.js';

/**
 * Races an attacker (or an impatient client) can start from outside: logout-all against sign-in
 * and session use, one Idempotency-Key sent twice at once, a refused key retried while points
 * arrive. Real requests against a real server over the test database.
 */
const t = useTestDatabase('web_adv_races');
const [ANN, BEN, MOD] = ['897400000000000001', '897400000000000002', '897400000000000003'];
let web: Awaited<ReturnType<typeof startWeb>>;
const wall = new ManualClock();
const fund = (member: string, points: number) => web.fund(member, points);

const pixel = (cookie: string, body: unknown, key: string) =>
  web.request('POST', '/api/place/pixel', { cookie, body, headers: { 'idempotency-key': key } });

async function wallet(member: string) {
  await web.deps.ledger.flush();
  return web.deps.services.place.wallet(member);
}

describe('races on the web API', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    wall.advanceTo(new Date());
    web = await startWeb(
      t,
      {
        WEB_WRITES_PER_MEMBER_PER_MIN: '100000',
        WEB_WRITES_PER_IP_PER_MIN: '100000',
        MODERATOR_USER_IDS: MOD,
      },
      { wallClock: wall },
    );
  });
  afterEach(() => web.close());

  it('GIVEN one Idempotency-Key sent at once with two different pixels THEN one is placed and the other is 409 IDEMPOTENCY_KEY_REUSED, charged once', async () => {
    const ann = await web.signIn(ANN, 'ann');
    const rounds = 12;
    await fund(ANN, 100 * rounds);
    for (let round = 0; round < rounds; round++) {
      const key = `same-key-diff-body-${round}`;
      const answers = await Promise.all([
        pixel(ann, { x: round, y: 1, color_index: 1 }, key),
        pixel(ann, { x: round, y: 2, color_index: 2 }, key),
      ]);
      const outcomes = answers
        .map((a) => (a.status === 200 ? 200 : `${a.status} ${a.json?.error?.code}`))
        .sort();
      expect([round, outcomes]).toEqual([round, [200, '409 IDEMPOTENCY_KEY_REUSED']]);
    }
    expect(await wallet(ANN)).toMatchObject({ balance: 0, placements: rounds });
  });

  it('GIVEN one Idempotency-Key sent four times at once with the same pixel THEN it is placed once and charged once; every answer names the same revision', async () => {
    const ann = await web.signIn(ANN, 'ann');
    const rounds = 8;
    await fund(ANN, 100 * rounds + 50);
    for (let round = 0; round < rounds; round++) {
      const key = `same-key-same-body-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => pixel(ann, { x: round, y: 3, color_index: 4 }, key)),
      );
      const placed = answers.filter((a) => a.status === 200);
      // A request that found the key being carried out may say so (409 OPERATION_IN_PROGRESS).
      for (const a of answers) {
        expect([round, a.status === 200 || a.json?.error?.code === 'OPERATION_IN_PROGRESS']).toEqual([
          round,
          true,
        ]);
      }
      expect(placed.length).toBeGreaterThan(0);
      expect(new Set(placed.map((a) => a.json.revision)).size).toBe(1);
      expect(placed.filter((a) => a.json.replayed === false).length).toBeLessThanOrEqual(1);
    }
    expect(await wallet(ANN)).toMatchObject({ balance: 50_000, placements: rounds });
  });

  it('GIVEN a key refused for want of points, retried while the refusal is being recorded and points arrive THEN the retry places it, charged once, and the key answers that placement ever after', async () => {
    const ann = await web.signIn(ANN, 'ann');
    // The first attempt's debit is refused; its answer is held back (a slow database, a busy
    // process) while the member earns points and the client, having timed out, retries the key.
    const economy = (
      web.deps.services.place as unknown as {
        deps: { economy: { payForPixel: (...a: unknown[]) => Promise<unknown> } };
      }
    ).deps.economy;
    const payForPixel = economy.payForPixel.bind(economy);
    let calls = 0;
    let firstRefused = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    economy.payForPixel = async (...args: unknown[]) => {
      if (++calls > 1) return payForPixel(...args);
      try {
        return await payForPixel(...args);
      } catch (error) {
        firstRefused = true;
        await held;
        throw error;
      }
    };
    const body = { x: 5, y: 5, color_index: 5 };
    const first = pixel(ann, body, 'refused-then-funded');
    await until(() => firstRefused, 10_000, 'the first attempt refused');
    await fund(ANN, 500);
    const retry = await pixel(ann, body, 'refused-then-funded');
    release();
    const firstAnswer = await first;
    const later = await pixel(ann, body, 'refused-then-funded');

    const charged = (await wallet(ANN)).placements;
    const answers = [firstAnswer, retry, later].map((a) =>
      a.status === 200 ? 200 : `${a.status} ${a.json?.error?.code}`,
    );
    // The first attempt answers what was true when it asked (402); the retry, asking again with
    // the points there, places the pixel; from then on the key answers that placement. Charged once.
    const REFUSED = '402 INSUFFICIENT_PLACE_POINTS';
    expect({ charged, answers }).toEqual({ charged: 1, answers: [REFUSED, 200, 200] });
  });

  it('GIVEN logout-all while a sign-in link is being used over HTTP THEN no cookie it hands out speaks for the member afterwards', async () => {
    for (let round = 0; round < 10; round++) {
      const { token } = await web.deps.services.web.createLink({ userId: ANN, name: 'ann', roleIds: [] });
      const [login] = await Promise.all([
        web.request('POST', '/place/login', {
          body: new URLSearchParams({ token }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        web.deps.services.web.signOutEverywhere(ANN),
      ]);
      expect([303, 410]).toContain(login.status);
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
      if (cookie) {
        const session = await web.request('GET', '/api/place/session', { cookie });
        expect([round, session.json]).toEqual([round, { signed_in: false }]);
        const write = await pixel(cookie, { x: 1, y: 1, color_index: 1 }, `after-logout-${round}`);
        expect([round, write.status, write.json.error.code]).toEqual([round, 401, 'NOT_SIGNED_IN']);
      }
    }
  });

  it('GIVEN logout-all while an OAuth session opens and while a session is in use THEN every session opened before the logout ends, and ones opened after it work', async () => {
    const web_ = web.deps.services.web;
    for (let round = 0; round < 10; round++) {
      const before = await web_.openSession({ userId: BEN, name: 'ben', roleIds: [] });
      const cookie = `place_session=${before.token}`;
      const [opened, , inUse] = await Promise.all([
        web_.openSession({ userId: BEN, name: 'ben', roleIds: [] }),
        web_.signOutEverywhere(BEN),
        web.request('GET', '/api/place/me', { cookie }),
      ]);
      expect([200, 401]).toContain(inUse.status);
      expect(await web_.session(before.token)).toBeNull();
      expect((await web.request('GET', '/api/place/session', { cookie })).json).toEqual({ signed_in: false });
      // The one opened at the same moment: either ended by the logout or opened after it; never half.
      const after = await web_.session(opened.token);
      if (after) expect(after.userId).toBe(BEN);
      const fresh = await web_.openSession({ userId: BEN, name: 'ben', roleIds: [] });
      expect(
        (await web.request('GET', '/api/place/session', { cookie: `place_session=${fresh.token}` })).json,
      ).toMatchObject({ signed_in: true });
    }
  });

  it('GIVEN one grant key sent four times at once, and another key sent at once with two amounts THEN the first credits once, the second credits one amount and answers 409 to the other', async () => {
    const mod = await web.signIn(MOD, 'mod');
    // Points go only to a member the bot has seen.
    await web.deps.profiles.touch({ id: ANN, name: 'ann' });
    const grant = (points: number, key: string) =>
      web.request('POST', '/api/admin/place/points', {
        cookie: mod,
        body: { target_client_id: ANN, points, reason: 'race' },
        headers: { 'idempotency-key': key },
      });
    const same = await Promise.all(Array.from({ length: 4 }, () => grant(5, 'grant-race-same-1')));
    for (const a of same)
      expect([a.status, a.json?.error?.code ?? 'ok']).toEqual(
        a.status === 200 ? [200, 'ok'] : [409, 'OPERATION_IN_PROGRESS'],
      );
    expect(same.some((a) => a.status === 200)).toBe(true);
    expect((await wallet(ANN)).balance).toBe(5_000);
    const differing = await Promise.all([grant(7, 'grant-race-diff-1'), grant(9, 'grant-race-diff-1')]);
    const outcomes = differing
      .map((a) => (a.status === 200 ? 200 : `${a.status} ${a.json?.error?.code}`))
      .sort();
    expect(outcomes).toEqual([200, '409 IDEMPOTENCY_KEY_REUSED']);
    const balance = (await wallet(ANN)).balance;
    expect([12_000, 14_000]).toContain(balance);
  });
});
