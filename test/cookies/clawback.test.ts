import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { isAppError } from '../../src/errors.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { type Rng, seededRng } from '../../src/rng.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('cookies_clawback');
const ANN = '811000000000000001';
const BEN = '811000000000000002';
const MOD = '811000000000000008';
const ADMIN = '811000000000000009';

async function setUp(members: Record<string, number>, vault = 0, rng?: Rng) {
  const made = makeBotDeps(t, rng ? { rng } : {});
  const { deps } = made;
  if (vault > 0) await deps.services.vault.fund({ opId: 'fund', adminId: ADMIN, amount: vault, reason: '' });
  for (const [member, amount] of Object.entries(members))
    await deps.services.cookies.grant({
      opId: `grant:${member}`,
      adminId: ADMIN,
      to: member,
      amount,
      reason: '',
    });
  return made;
}

const clawback = (deps: BotDeps, opId: string, amount: number, from = ANN) =>
  deps.services.cookies.clawback({ opId, moderatorId: MOD, from, amount, reason: 'test' });

async function expectBooksClean(deps: BotDeps) {
  await deps.ledger.flush();
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
}

describe('a clawback of Cookies', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 100 asked of a balance of 40 THEN it takes 40, burns them, and a retry of the same id takes nothing more', async () => {
    const { deps } = await setUp({ [ANN]: 40 });
    expect(await clawback(deps, 'cb-1', 100)).toEqual({ taken: 40, balance: 0 });
    await deps.services.cookies.grant({ opId: 'later', adminId: ADMIN, to: ANN, amount: 70, reason: '' });
    expect((await clawback(deps, 'cb-1', 100)).taken).toBe(40);
    expect(await deps.ledger.balanceOf('cookies', ANN)).toBe(70);
    // Burned, as grants are minted: the vault is not paid.
    expect(await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId)).toBe(0);
    await expectBooksClean(deps);
  });

  it('GIVEN an empty balance THEN it takes nothing and moves nothing', async () => {
    const { deps } = await setUp({});
    expect(await clawback(deps, 'cb-empty', 5)).toEqual({ taken: 0, balance: 0 });
    await expectBooksClean(deps);
  });

  it('GIVEN a blackjack stake in a hold THEN the clawback takes only the free balance and the hand keeps its stake', async () => {
    // Seeded: the first hand dealt waits for the member (no natural), its 100 held, 50 free.
    const { deps } = await setUp({ [ANN]: 150 }, 1_000_000, seededRng('clawback-stake'));
    const hand = await deps.services.games.startBlackjack({ roundId: 'bj-0', userId: ANN, bet: 100 });
    expect(hand.status).toBe('playing');
    await deps.ledger.flush();
    const free = await deps.ledger.balanceOf('cookies', ANN);
    expect(free).toBe(50);
    const taken = await clawback(deps, 'cb-stake', 1_000);
    expect(taken).toEqual({ taken: free, balance: 0 });
    const held = await deps.holds.openInvolving(ANN);
    expect(held.length).toBeGreaterThan(0);
    await expectBooksClean(deps);
  });

  it('GIVEN a clawback racing 20 gives of the same member THEN the balance never goes below zero and taken plus given is what there was', async () => {
    const { deps } = await setUp({ [ANN]: 1_000 });
    const cookies = deps.services.cookies;
    for (let i = 0; i < 20; i++)
      await cookies.openGive({ promptId: `give-${i}`, from: ANN, to: BEN, amount: 60 });
    const [clawed, ...gives] = await Promise.all([
      clawback(deps, 'cb-race', 700),
      ...Array.from({ length: 20 }, (_, i) =>
        cookies.confirmGive(`give-${i}`, ANN).catch((error: unknown) => {
          if (isAppError(error, 'INSUFFICIENT_COOKIES')) return null;
          throw error;
        }),
      ),
    ]);
    await deps.ledger.flush();
    const given = gives.filter((g) => g?.status === 'given').length * 60;
    const left = await deps.ledger.balanceOf('cookies', ANN);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(clawed.taken).toBeLessThanOrEqual(700);
    expect(clawed.taken + given + left).toBe(1_000);
    expect(await deps.ledger.balanceOf('cookies', BEN)).toBe(given);
    await expectBooksClean(deps);
  });

  it('GIVEN a clawback racing 30 coinflips of the same member THEN nothing goes below zero and the books are clean', async () => {
    const { deps } = await setUp({ [ANN]: 1_000 }, 1_000_000);
    const [clawed, ...rounds] = await Promise.all([
      clawback(deps, 'cb-games', 1_000),
      ...Array.from({ length: 30 }, (_, i) =>
        deps.services.games
          .playInstant('coinflip', { roundId: `flip-${i}`, userId: ANN, bet: 50, params: { side: 'heads' } })
          .catch((error: unknown) => {
            if (isAppError(error, 'INSUFFICIENT_COOKIES')) return null;
            throw error;
          }),
      ),
    ]);
    await deps.ledger.flush();
    const played = rounds.filter((r) => r !== null);
    const net = played.reduce((sum, r) => sum + (r.payout ?? 0) - (r.stake ?? 0), 0);
    const left = await deps.ledger.balanceOf('cookies', ANN);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(clawed.taken).toBeLessThanOrEqual(1_000);
    expect(left).toBe(1_000 + net - clawed.taken);
    await expectBooksClean(deps);
  });

  it('GIVEN two moderators clawing back 600 each of 1,000 at once THEN together they take 1,000', async () => {
    const { deps } = await setUp({ [ANN]: 1_000 });
    const [one, two] = await Promise.all([clawback(deps, 'cb-a', 600), clawback(deps, 'cb-b', 600)]);
    expect(one.taken + two.taken).toBe(1_000);
    expect([one.taken, two.taken].sort()).toEqual([400, 600]);
    expect(await deps.ledger.balanceOf('cookies', ANN)).toBe(0);
    await expectBooksClean(deps);
  });
});
