import { beforeEach, describe, expect, it } from 'vitest';
import type { BotDeps } from '../../src/interactions/types.js';
import { silentLogger } from '../../src/logger.js';
import { bakeryPool } from '../../utils/cookies/bakeryShare.js';
import { COOKIE_KINDS, CookieEconomy } from '../../utils/money/cookieEconomy.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('bakery_share');
const MEMBERS = ['850000000000000001', '850000000000000002', '850000000000000003'];
const LATE = '850000000000000009';
const CHANNEL = '850000000000000777';
const DAY = '2026-03-01';
/** A reserve of 1,000: the vault shares what it holds above 3,000. */
const ENV = { HOUSE_MIN_RESERVE_COOKIES: '1000' };

describe('the bakery share (COOKIE_LOGIC.md worked examples)', () => {
  it('GIVEN the vault won 1,000 and holds plenty THEN 80 % goes back in whole equal parts', () => {
    expect(bakeryPool({ houseTake: 1_000, vault: 50_000, target: 3_000, pct: 80, recipients: 3 })).toEqual({
      pool: 798,
      share: 266,
    });
  });

  it('GIVEN a vault just above its target THEN only the surplus is shared', () => {
    expect(bakeryPool({ houseTake: 1_000, vault: 3_100, target: 3_000, pct: 80, recipients: 4 })).toEqual({
      pool: 100,
      share: 25,
    });
  });

  it('GIVEN a day the vault lost, or nobody collected THEN nothing is shared', () => {
    expect(bakeryPool({ houseTake: -500, vault: 50_000, target: 3_000, pct: 80, recipients: 3 }).pool).toBe(
      0,
    );
    expect(bakeryPool({ houseTake: 1_000, vault: 50_000, target: 3_000, pct: 80, recipients: 0 }).pool).toBe(
      0,
    );
  });
});

/** The day: three members collect, one loses 1,000 to the vault; a fourth collects after midnight. */
async function playDay(deps: BotDeps, clock: { advance(ms: number): void }) {
  await deps.services.vault.fund({ opId: 'fund', adminId: 'admin', amount: 50_000, reason: '' });
  await deps.runtimeConfig.set('cookies.bakery_channel', CHANNEL, 'admin');
  for (const member of MEMBERS) await deps.services.collect.collect(member, 'command', 'de');
  const economy = new CookieEconomy(deps.ledger);
  await economy.toHouse(MEMBERS[0] as string, {
    opId: 'lost-at-the-tables',
    amount: 40,
    kind: COOKIE_KINDS.gameStake,
    source: MEMBERS[0] as string,
  });
  await economy.mint(LATE, { opId: 'late-grant', amount: 2_000, kind: COOKIE_KINDS.grant, source: 'admin' });
  await economy.toHouse(LATE, { opId: 'late-loss', amount: 960, kind: COOKIE_KINDS.gameStake, source: LATE });
  clock.advance(12 * 3_600_000 + 5 * 60_000); // 00:05 the next day: the share is not due yet
  await deps.services.collect.collect(LATE, 'command');
}

const shareOf = async (deps: BotDeps, member: string) =>
  (await new CookieEconomy(deps.ledger).totalsByKind(member)).get(COOKIE_KINDS.bakeryShare)?.in ?? 0;

describe("a day's share, paid by its timer", () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN three collectors and a vault 1,000 ahead THEN at 00:10 each gets 266, the channel is told in the server language, and history names it', async () => {
    const { deps, clock, transport } = makeBotDeps(t, { env: ENV });
    await playDay(deps, clock);
    await deps.scheduler.runDue();
    for (const member of MEMBERS) expect(await shareOf(deps, member)).toBe(0);
    clock.advance(5 * 60_000);
    await deps.scheduler.runDue();
    for (const member of MEMBERS) expect(await shareOf(deps, member)).toBe(266);
    // Collected after midnight: part of the next day's share, not of this one.
    expect(await shareOf(deps, LATE)).toBe(0);
    const posted = transport.posts.filter((p) => p.channelId === CHANNEL);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.post.content).toContain('jedes der 3 Mitglieder');
    expect(posted[0]?.post.content).toContain('1.000');
    const history = await deps.ledger.queries.history('cookies', MEMBERS[1] as string, 5);
    expect(history[0]).toMatchObject({ kind: COOKIE_KINDS.bakeryShare, delta: 266 });
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it("GIVEN a collector forgotten on request before the share is paid THEN the others get theirs and the former member's stays in the vault", async () => {
    const { deps, clock } = makeBotDeps(t, { env: ENV });
    await playDay(deps, clock);
    await deps.scheduler.runDue();
    const erasure = await deps.services.privacy.forget(deps.services, MEMBERS[0] as string, 'self', 'en');
    expect(erasure.state).toBe('done');
    clock.advance(5 * 60_000);
    await deps.scheduler.runDue();
    const decided = await deps.services.bakery.share(DAY);
    expect(decided.recipients).toContain(erasure.pseudonym);
    for (const member of MEMBERS.slice(1)) expect(await shareOf(deps, member)).toBe(266);
    expect(await shareOf(deps, erasure.pseudonym)).toBe(0);
    expect(await t.db.collection('due_tasks').countDocuments({ status: 'failed' })).toBe(0);
    // A payment's markers leave in a batch after it answered: the books are read once they did.
    await deps.ledger.flush();
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN two processes sharing the same day at once, and the task run again after THEN each member is paid once', async () => {
    const first = makeBotDeps(t, { env: ENV });
    const second = makeBotDeps(t, { env: ENV });
    await playDay(first.deps, first.clock);
    second.clock.advanceTo(first.clock.now());
    const [a, b] = await Promise.all([
      first.deps.services.bakery.share(DAY),
      second.deps.services.bakery.share(DAY),
    ]);
    expect(a.share).toBe(266);
    expect(b.share).toBe(266);
    expect(a.recipients).toEqual(b.recipients);
    await first.deps.services.bakery.share(DAY);
    for (const member of MEMBERS) expect(await shareOf(first.deps, member)).toBe(266);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a process that dies right after paying the first member THEN the task run again pays the others, the first not twice', async () => {
    let died = false;
    const dying = makeBotDeps(t, {
      env: ENV,
      hooks: {
        step: (step, spec) => {
          if (step === 'events.written' && spec.kind === COOKIE_KINDS.bakeryShare && !died) {
            died = true;
            throw new Error('the process died here');
          }
        },
      },
    });
    await playDay(dying.deps, dying.clock);
    dying.clock.advance(5 * 60_000);
    await dying.deps.scheduler.runDue();
    expect(died).toBe(true);
    const paidBefore = await Promise.all(MEMBERS.map((m) => shareOf(dying.deps, m)));
    expect(paidBefore.filter((p) => p === 266)).toHaveLength(1);

    const next = makeBotDeps(t, { env: ENV });
    next.clock.advanceTo(new Date(dying.clock.now().getTime() + 5 * 60_000));
    await next.deps.scheduler.runDue();
    for (const member of MEMBERS) expect(await shareOf(next.deps, member)).toBe(266);
    expect(next.transport.posts.filter((p) => p.channelId === CHANNEL)).toHaveLength(1);
    // The dead process's markers are the recovery pass's to clear, as in production.
    await recoverLedger({ cols: t.cols, clock: next.clock, log: silentLogger }, { graceMs: 0 });
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a vault below its target (100 × its reserve) THEN nothing is paid and nothing is told', async () => {
    const { deps, clock, transport } = makeBotDeps(t, { env: ENV });
    await deps.runtimeConfig.set('cookies.bakery_share_above_reserve_x', '100', 'admin');
    await playDay(deps, clock);
    clock.advance(10 * 60_000);
    await deps.scheduler.runDue();
    for (const member of MEMBERS) expect(await shareOf(deps, member)).toBe(0);
    expect(transport.posts.filter((p) => p.channelId === CHANNEL)).toHaveLength(0);
  });
});
