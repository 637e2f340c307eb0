import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { startWeb } from '../support/webHarness.js';

/**
 * The moderators' actions racing what members do at the same moment, over real HTTP: a clawback
 * against the member's placements, a ban against a placement in flight, a ban against its lift,
 * and one action double-submitted.
 */
const t = useTestDatabase('web_portal_races');
const MOD = '897500000000000001';
const MIA = '897500000000000002';
/** What a pixel costs by default, in points. */
const PIXEL = 100;
let web: Awaited<ReturnType<typeof startWeb>>;
let moderator = '';
let mia = '';

const adminPost = (path: string, body: unknown, key: string) =>
  web.request('POST', path, { cookie: moderator, body, headers: { 'idempotency-key': key } });
const pixel = (x: number, key: string) =>
  web.request('POST', '/api/place/pixel', {
    cookie: mia,
    body: { x, y: 7, color_index: 2 },
    headers: { 'idempotency-key': key },
  });

async function expectBooksClean() {
  await web.deps.ledger.flush();
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(
    await ASSEMBLY.checkInvariants(t.db, web.deps.config, web.deps.ledger, web.deps.clock.now()),
  ).toEqual([]);
}

describe('moderators racing members on the web', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t, {
      MODERATOR_USER_IDS: MOD,
      WEB_WRITES_PER_MEMBER_PER_MIN: '100000',
      WEB_WRITES_PER_IP_PER_MIN: '100000',
    });
    moderator = await web.signIn(MOD, 'moe');
    mia = await web.signIn(MIA, 'mia');
  });
  afterEach(() => web.close());

  it('GIVEN a clawback of everything WHEN the member places pixels at the same moment THEN what was taken and what was painted add up to the wallet, never below zero', async () => {
    await web.fund(MIA, 10 * PIXEL);
    const [claw, ...placed] = await Promise.all([
      adminPost('/api/admin/place/clawback', { member: MIA, points: String(10 * PIXEL) }, 'race-claw-0001'),
      ...Array.from({ length: 10 }, (_, i) => pixel(i, `race-pixel-${i}-key`)),
    ]);
    expect(claw?.status).toBe(200);
    for (const p of placed) expect([200, 402]).toContain(p.status);
    const painted = placed.filter((p) => p.status === 200).length;
    expect(claw?.json.taken + painted * PIXEL).toBe(10 * PIXEL);
    await web.deps.ledger.flush();
    expect((await web.deps.services.place.wallet(MIA)).balance).toBe(0);
    await expectBooksClean();
  });

  it('GIVEN a ban WHEN placements are in flight THEN each placement is painted and charged or refused and not charged, and every one after the ban’s answer is refused', async () => {
    await web.fund(MIA, 20 * PIXEL);
    const inFlight = Array.from({ length: 8 }, (_, i) => pixel(i, `ban-race-${i}-key`));
    const ban = await adminPost(
      '/api/admin/sanctions',
      { member: MIA, scope: 'painting', duration: '1h', reason: 'race' },
      'ban-race-0001',
    );
    expect(ban.json.outcome).toBe('banned');
    const after = await pixel(50, 'ban-race-after1');
    expect([after.status, after.json.error.code]).toEqual([403, 'SANCTIONED']);
    const answers = await Promise.all(inFlight);
    for (const a of answers) expect([200, 403]).toContain(a.status);
    const painted = answers.filter((a) => a.status === 200).length;
    await web.deps.ledger.flush();
    expect((await web.deps.services.place.wallet(MIA)).balance).toBe((20 - painted) * PIXEL * 1000);
    await expectBooksClean();
  });

  it('GIVEN a ban and its lift sent at once THEN what stands matches what each answered, and each change has its audit line', async () => {
    for (let round = 0; round < 6; round++) {
      const [ban, lift] = await Promise.all([
        adminPost(
          '/api/admin/sanctions',
          { member: MIA, scope: 'games', duration: '1h', reason: `round ${round}` },
          `ban-lift-ban-${round}`,
        ),
        adminPost('/api/admin/sanctions/lift', { member: MIA, scope: 'games' }, `ban-lift-lift-${round}`),
      ]);
      expect(ban.json.outcome).toBe('banned');
      const standing = await web.deps.services.moderation.list(MIA);
      // Lifted: the lift came after the ban. Not lifted: the ban came after, and stands.
      expect([round, lift.json.lifted, standing.length]).toEqual([
        round,
        lift.json.lifted,
        lift.json.lifted ? 0 : 1,
      ]);
      await web.deps.services.moderation.lift(MIA, 'games');
    }
    const audit = t.db.collection('admin_audit');
    await expect.poll(() => audit.countDocuments({ kind: 'sanction.ban' })).toBe(6);
  });

  it('GIVEN one clawback and one ban double-submitted four times at once THEN each acts once and is audited once', async () => {
    await web.fund(MIA, 10);
    const claws = await Promise.all(
      Array.from({ length: 4 }, () =>
        adminPost('/api/admin/place/clawback', { member: MIA, points: '3' }, 'double-claw-01'),
      ),
    );
    for (const c of claws) expect([200, 409]).toContain(c.status);
    const bans = await Promise.all(
      Array.from({ length: 4 }, () =>
        adminPost(
          '/api/admin/sanctions',
          { member: MIA, scope: 'economy', duration: '2h', reason: 'x' },
          'double-ban-01',
        ),
      ),
    );
    for (const b of bans) expect(b.status).toBe(200);
    await web.deps.ledger.flush();
    expect((await web.deps.services.place.wallet(MIA)).balance).toBe(7_000);
    const audit = t.db.collection('admin_audit');
    await expect.poll(() => audit.countDocuments({ kind: 'place.clawback' })).toBe(1);
    expect(await audit.countDocuments({ kind: 'sanction.ban' })).toBe(1);
    await expectBooksClean();
  });

  it('GIVEN a rollback WHEN one tab applies it with a refund and another cancels it at once THEN either it is restored and refunded or nothing changes', async () => {
    const admin = await web.signIn(web.adminId, 'ada');
    for (let round = 0; round < 4; round++) {
      await web.fund(MIA, PIXEL);
      const painted = await pixel(round, `cancel-race-paint-${round}`);
      expect(painted.status).toBe(200);
      const plan = await web.request('POST', '/api/admin/place/rollbacks', {
        cookie: admin,
        body: { member: MIA, x1: round, y1: 7, x2: round, y2: 7 },
        headers: { 'idempotency-key': `cancel-race-plan-${round}` },
      });
      const press = (action: string) =>
        web.request('POST', `/api/admin/place/rollbacks/${plan.json.id}`, {
          cookie: admin,
          body: { action },
        });
      const [applied, cancelled] = await Promise.all([press('refund'), press('cancel')]);
      const restored = applied.json.restored === 1;
      expect([round, applied.json.refunded]).toEqual([round, restored ? PIXEL : 0]);
      // The cancel that lost says what it found: the apply under way or done.
      expect(restored ? ['applying', 'applied'] : ['cancelled']).toContain(cancelled.json.status);
      const pixelNow = await web.request('GET', `/api/public/place/pixel?x=${round}&y=7`);
      expect([round, pixelNow.json.color_index === 2]).toEqual([round, !restored]);
      await web.deps.ledger.flush();
      expect((await web.deps.services.place.wallet(MIA)).balance).toBe(restored ? PIXEL * 1000 : 0);
      if (restored)
        await web.request('POST', '/api/admin/place/clawback', {
          cookie: moderator,
          body: { member: MIA, points: String(PIXEL) },
          headers: { 'idempotency-key': `cancel-race-claw-${round}` },
        });
    }
    await expectBooksClean();
  });
});
