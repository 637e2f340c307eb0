import { beforeEach, describe, expect, it } from 'vitest';
import type { BotDeps } from '../../src/interactions/types.js';
import { silentLogger } from '../../src/logger.js';
import { blackjackDeck, playInstant } from '../../utils/games/catalog.js';
import { hashServerSeed } from '../../utils/games/fairness.js';
import { FairnessStore } from '../../utils/games/fairnessStore.js';
import { deal } from '../../utils/games/houseGames/blackjack/rules.js';
import type { RoundDoc } from '../../utils/games/roundStore.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import type { LedgerStep } from '../../utils/money/ledger/ledger.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import type { HeistDoc } from '../../utils/vault/heistStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import type { EconomyCrashPlan } from '../support/economyCrashChild.js';
import { PROCESS_TEST_TIMEOUT_MS, reached, runCrashChild } from '../support/nodeProcess.js';

const t = useTestDatabase('economy_crash');
const ANN = '860000000000000001';
const BEN = '860000000000000002';
const VAULT = 100_000;
const GRANTED = 1_000;
const SERVER_SEED = 'crash-test-server-seed';

/** A member seed whose first round is what the case needs (a won coinflip, a lost one, an open hand). */
function memberSeedFor(want: 'heads' | 'tails' | 'open-hand'): string {
  for (let i = 0; ; i++) {
    const seeds = { serverSeed: SERVER_SEED, memberSeed: `seed-${i}`, nonce: 0 };
    if (want === 'open-hand') {
      if (deal(blackjackDeck(seeds)).phase === 'playing') return seeds.memberSeed;
    } else if (playInstant('coinflip', seeds, 100, { side: 'heads' }).outcome.landed === want)
      return seeds.memberSeed;
  }
}

async function setUp(memberSeed?: string) {
  const made = makeBotDeps(t);
  const { deps, clock } = made;
  await deps.services.vault.fund({ opId: 'fund', adminId: 'admin', amount: VAULT, reason: '' });
  for (const member of [ANN, BEN]) {
    await deps.services.cookies.grant({
      opId: `grant-${member}`,
      adminId: 'admin',
      to: member,
      amount: GRANTED,
      reason: '',
    });
  }
  if (memberSeed) {
    await new FairnessStore(t.db, { server: () => SERVER_SEED, member: () => memberSeed }).current(
      ANN,
      clock.now(),
    );
    expect((await deps.services.games.fairness(ANN)).serverSeedHash).toBe(hashServerSeed(SERVER_SEED));
  }
  return made;
}

async function crash(plan: Omit<EconomyCrashPlan, 'uri' | 'dbName'>): Promise<string> {
  const { stdout } = await runCrashChild<EconomyCrashPlan>('test/support/economyCrashChild.ts', plan, t);
  expect(stdout).toContain(reached(`${plan.kind} ${plan.step}`));
  return stdout;
}

/** What a restarted bot does: the ledger's recovery pass, then every timer that is due. */
async function recover(deps: BotDeps, clock: { advance(ms: number): void; now(): Date }, afterMs: number) {
  clock.advance(afterMs);
  await recoverLedger(
    { cols: t.cols, clock, log: silentLogger },
    { graceMs: 0, fenceRetentionMs: 86_400_000 },
  );
  await deps.scheduler.runDue();
  await deps.ledger.flush();
}

async function expectAllCookiesAccountedFor(deps: BotDeps) {
  const report = await checkInvariants(t.cols);
  expect(report.problems).toEqual([]);
  expect(report.totals.cookies.balances).toBe(report.totals.cookies.minted);
  const held = await Promise.all(
    [ANN, BEN, deps.ledger.houseAccountId].map((a) => deps.ledger.balanceOf('cookies', a)),
  );
  return held;
}

describe('a bot process killed in the middle of a Cookie movement', {
  timeout: PROCESS_TEST_TIMEOUT_MS,
}, () => {
  beforeEach(() => clearDatabase(t.db));

  it.each<[string, LedgerStep]>([
    ['before the reward is credited', 'credit.before'],
    ['after the credit, before its audit event', 'credit.applied'],
  ])(
    'GIVEN a collect killed %s THEN recovery pays the reward once and the cooldown holds',
    async (_, step) => {
      const { deps, clock } = await setUp();
      await crash({ action: 'collect', kind: 'cookies.collect', step, userId: ANN, id: '' });
      await recover(deps, clock, 61_000);
      const collected = (await deps.services.cookies.profile(ANN)).collected;
      expect(collected).toBeGreaterThanOrEqual(40);
      expect(collected).toBeLessThanOrEqual(60);
      expect(await deps.ledger.balanceOf('cookies', ANN)).toBe(GRANTED + collected);
      await expect(deps.services.collect.collect(ANN, 'command')).rejects.toMatchObject({
        code: 'COOLDOWN_ACTIVE',
      });
      await recover(deps, clock, 3_600_000);
      expect((await deps.services.cookies.profile(ANN)).collects).toBe(1);
      await expectAllCookiesAccountedFor(deps);
    },
  );

  it.each<[string, 'heads' | 'tails', string, LedgerStep, 'settled' | 'refunded']>([
    ['while the vault fills the pot', 'heads', 'games.hold', 'credit.before', 'refunded'],
    ['after the stake left the member', 'heads', 'games.stake', 'debit.applied', 'refunded'],
    ['before the win is paid', 'heads', 'games.payout', 'credit.before', 'settled'],
    ['after the win is paid, before its audit event', 'heads', 'games.payout', 'events.written', 'settled'],
    ['while a lost stake goes to the vault', 'tails', 'games.return', 'credit.applied', 'settled'],
  ])(
    'GIVEN a coinflip killed %s THEN its timer finishes it exactly once',
    async (_, side, kind, step, status) => {
      const { deps, clock } = await setUp(memberSeedFor(side));
      await crash({ action: 'coinflip', kind, step, userId: ANN, id: 'flip-1' });
      await recover(deps, clock, 61_000);
      const round = (await deps.services.games.get('flip-1')) as RoundDoc;
      expect(round.status).toBe(status);
      const [ann, , vault] = await expectAllCookiesAccountedFor(deps);
      const memberNet = status === 'refunded' ? 0 : (round.payout ?? 0) - 100;
      expect(memberNet).toBe(side === 'heads' && status === 'settled' ? 96 : status === 'settled' ? -100 : 0);
      expect(ann).toBe(GRANTED + memberNet);
      expect(vault).toBe(VAULT - memberNet);
      expect(await deps.holds.ofOwner({ kind: 'game', id: 'flip-1' })).not.toContainEqual(
        expect.objectContaining({ state: 'held' }),
      );
      // A retry of the same interaction after recovery shows the same round and moves nothing.
      const again = await deps.services.games.playInstant('coinflip', {
        roundId: 'flip-1',
        userId: ANN,
        bet: 100,
        params: { side: 'heads' },
      });
      expect(again.status).toBe(status);
      expect(await deps.ledger.balanceOf('cookies', ANN)).toBe(ann);
    },
  );

  it('GIVEN a blackjack double killed between its stake leaving the member and reaching the pot THEN the hand is finished once, doubled or stood', async () => {
    const { deps, clock } = await setUp(memberSeedFor('open-hand'));
    await crash({
      action: 'blackjack',
      kind: 'games.stake',
      step: 'debit.applied',
      nth: 2,
      userId: ANN,
      id: 'hand-1',
    });
    expect(await deps.services.games.get('hand-1')).toMatchObject({ status: 'playing', doubling: true });
    await recover(deps, clock, 601_000);
    const round = (await deps.services.games.get('hand-1')) as RoundDoc;
    expect(round.status).toBe('settled');
    const [ann, , vault] = await expectAllCookiesAccountedFor(deps);
    const memberNet = (round.payout ?? 0) - (round.stake ?? 0);
    expect(round.stake).toBe(round.hand?.doubled ? 200 : 100);
    expect(ann).toBe(GRANTED + memberNet);
    expect(vault).toBe(VAULT - memberNet);
    expect(await deps.holds.ofOwner({ kind: 'game', id: 'hand-1' })).not.toContainEqual(
      expect.objectContaining({ state: 'held' }),
    );
  });

  it('GIVEN a heist killed while it pays its crew THEN the timer pays the rest, once', async () => {
    const { deps, clock } = await setUp();
    await deps.services.vault.startHeist({ heistId: 'heist-1', leader: ANN, stake: 100, locale: 'en' });
    await deps.services.vault.joinHeist('heist-1', BEN);
    // The child's heist succeeds (its rolls are all lowest) and dies paying the first member.
    await crash({
      action: 'heist-close',
      kind: 'heist.payout',
      step: 'credit.before',
      userId: ANN,
      id: 'heist-1',
      advanceMs: 121_000,
    });
    expect(await deps.services.vault.getHeist('heist-1')).toMatchObject({
      status: 'settling',
      result: { outcome: 'success' },
    });
    await recover(deps, clock, 121_000);
    const heist = (await deps.services.vault.getHeist('heist-1')) as HeistDoc;
    expect(heist.status).toBe('settled');
    const share = heist.result?.share ?? 0;
    expect(share).toBe(300); // 3 × the 100 stake: less than 2 % of the vault or the cap
    expect(await expectAllCookiesAccountedFor(deps)).toEqual([
      GRANTED + share,
      GRANTED + share,
      VAULT - 2 * share,
    ]);
  });
});
