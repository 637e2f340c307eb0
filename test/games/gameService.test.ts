import { beforeEach, describe, expect, it } from 'vitest';
import { AppError, isAppError } from '../../src/errors.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { type Rng, seededRng } from '../../src/rng.js';
import type { RoundDoc } from '../../utils/games/roundStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('games');
const ANN = '820000000000000001';
const BEN = '820000000000000002';
const ADMIN = '820000000000000009';
let nextId = 1;
const id = () => `r${nextId++}`;

async function setUp(vault = 1_000_000, members: Record<string, number> = { [ANN]: 10_000 }, rng?: Rng) {
  const made = makeBotDeps(t, rng ? { rng } : {});
  const { deps } = made;
  if (vault > 0)
    await deps.services.vault.fund({ opId: `fund:${id()}`, adminId: ADMIN, amount: vault, reason: 'test' });
  for (const [member, amount] of Object.entries(members)) {
    await deps.services.cookies.grant({
      opId: `grant:${id()}`,
      adminId: ADMIN,
      to: member,
      amount,
      reason: 'test',
    });
  }
  return made;
}

async function balances(deps: BotDeps, round?: RoundDoc) {
  await deps.ledger.flush();
  return {
    ann: await deps.ledger.balanceOf('cookies', ANN),
    vault: await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId),
    pot: round ? await heldFor(deps, round._id) : 0,
  };
}

/** What a round still holds: the Cookies in its holds' accounts (0 once it ended). */
async function heldFor(deps: BotDeps, roundId: string): Promise<number> {
  let held = 0;
  for (const hold of await deps.holds.ofOwner({ kind: 'game', id: roundId })) {
    held += await deps.ledger.balanceOf('cookies', hold.account);
  }
  return held;
}

async function expectClean() {
  expect(await booksProblems(t.cols)).toEqual([]);
}

/** A blackjack hand that is still waiting for the member (about nine deals in ten are). */
async function openHand(deps: BotDeps, bet = 100): Promise<RoundDoc> {
  for (let tries = 0; tries < 30; tries++) {
    const round = await deps.services.games.startBlackjack({ roundId: id(), userId: ANN, bet });
    if (round.status === 'playing') return round;
  }
  throw new Error('no open hand in 30 deals');
}

describe('house games', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 40 rounds of each instant game by two members at once THEN every Cookie is where the rounds say and the pots are empty', async () => {
    const { deps } = await setUp(1_000_000, { [ANN]: 20_000, [BEN]: 20_000 });
    const games = ['coinflip', 'dice', 'slots'] as const;
    const rounds = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        deps.services.games.playInstant(games[i % 3] as (typeof games)[number], {
          roundId: id(),
          userId: i % 2 === 0 ? ANN : BEN,
          bet: 10 + (i % 7),
          params:
            games[i % 3] === 'coinflip'
              ? { side: i % 4 < 2 ? 'heads' : 'tails' }
              : games[i % 3] === 'dice'
                ? { target: 5 + (i % 90) }
                : {},
        }),
      ),
    );
    expect(rounds.every((r) => r.status === 'settled')).toBe(true);
    const net = (member: string) =>
      rounds.filter((r) => r.userId === member).reduce((sum, r) => sum + (r.payout ?? 0) - (r.stake ?? 0), 0);
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('cookies', ANN)).toBe(20_000 + net(ANN));
    expect(await deps.ledger.balanceOf('cookies', BEN)).toBe(20_000 + net(BEN));
    expect(await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId)).toBe(
      1_000_000 - net(ANN) - net(BEN),
    );
    for (const r of rounds) {
      expect(await heldFor(deps, r._id)).toBe(0);
      const holds = await deps.holds.ofOwner({ kind: 'game', id: r._id });
      expect(holds.map((h) => h.state)).toEqual(holds.map(() => 'posted'));
    }
    expect(await deps.services.games.stats(ANN)).toMatchObject({ played: 60, net: net(ANN) });
    await expectClean();
  });

  it('GIVEN a bet whose largest win the vault cannot cover THEN it is refused with the current maximum and nothing moves', async () => {
    const { deps } = await setUp(100_000);
    // 5 % of 100,000 may be won by one round: a coinflip (1.96×) may bet up to 5,000 / 0.96 = 5,208.
    const refused = await deps.services.games
      .playInstant('coinflip', { roundId: id(), userId: ANN, bet: 6_000, params: { side: 'heads' } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('VAULT_LIMIT');
    expect((refused as AppError).context).toMatchObject({ bet: 6_000, maxBet: 5_208 });
    expect(await balances(deps)).toEqual({ ann: 10_000, vault: 100_000, pot: 0 });
    const ok = await deps.services.games.playInstant('coinflip', {
      roundId: id(),
      userId: ANN,
      bet: 5_208,
      params: { side: 'heads' },
    });
    expect(ok.status).toBe('settled');
    await expectClean();
  });

  it('GIVEN an empty vault, a bet out of range or above the balance THEN each is refused and nothing moves', async () => {
    const empty = await setUp(0, { [ANN]: 50 });
    const play = (bet: number) =>
      empty.deps.services.games
        .playInstant('dice', { roundId: id(), userId: ANN, bet, params: { target: 50 } })
        .catch((e: unknown) => e);
    expect(await play(20)).toMatchObject({ code: 'VAULT_LIMIT', context: { maxBet: 0 } });
    await empty.deps.services.vault.fund({
      opId: 'fund-late',
      adminId: ADMIN,
      amount: 1_000_000,
      reason: '',
    });
    expect(await play(5)).toMatchObject({ code: 'BET_OUT_OF_RANGE', context: { min: 10 } });
    expect(await play(60)).toMatchObject({
      code: 'INSUFFICIENT_COOKIES',
      context: { balance: 50, needed: 60 },
    });
    expect(await balances(empty.deps)).toEqual({ ann: 50, vault: 1_000_000, pot: 0 });
    await expectClean();
  });

  it('GIVEN the same round resolved again (a retried interaction, the timer) THEN it returns the first result and pays once', async () => {
    const { deps, clock } = await setUp();
    const roundId = id();
    const first = await deps.services.games.playInstant('slots', { roundId, userId: ANN, bet: 100 });
    const before = await balances(deps);
    const again = await deps.services.games.playInstant('slots', { roundId, userId: ANN, bet: 100 });
    clock.advance(120_000);
    await deps.scheduler.runDue();
    const finished = await deps.services.games.finish(roundId);
    expect(again).toMatchObject({ status: 'settled', payout: first.payout, outcome: first.outcome });
    expect(finished).toMatchObject({ status: 'settled', payout: first.payout });
    expect(await balances(deps)).toEqual(before);
    await expectClean();
  });

  it('GIVEN two presses racing on the same hand THEN only one move happens and the hand settles once', async () => {
    const { deps } = await setUp();
    for (let hand = 0; hand < 10; hand++) {
      const round = await openHand(deps);
      const [a, b] = await Promise.all([
        deps.services.games.blackjack(round._id, ANN, 'stand', round.step),
        deps.services.games.blackjack(round._id, ANN, 'stand', round.step),
      ]);
      const final = (await deps.services.games.get(round._id)) as RoundDoc;
      expect(final.status).toBe('settled');
      expect(final.step).toBe(1);
      for (const seen of [a, b]) expect(seen.hand?.player).toEqual(final.hand?.player);
    }
    const stats = await deps.services.games.stats(ANN);
    expect(await balances(deps)).toMatchObject({ ann: 10_000 + stats.net, vault: 1_000_000 - stats.net });
    await expectClean();
  });

  it('GIVEN a hand dealt before a restart THEN a press on its message afterwards continues the same hand', async () => {
    const before = await setUp();
    const round = await openHand(before.deps);
    // A new process: new services, caches and clock over the same database.
    const after = makeBotDeps(t);
    const pressed = await after.deps.services.games.blackjack(round._id, ANN, 'stand', round.step);
    expect(pressed.status).toBe('settled');
    expect(pressed.hand?.player).toEqual(round.hand?.player);
    expect(pressed.hand?.dealer.slice(0, 2)).toEqual(round.hand?.dealer.slice(0, 2));
    const stale = await after.deps.services.games.blackjack(round._id, ANN, 'hit', round.step);
    expect(stale).toMatchObject({ status: 'settled', step: 1 });
    await expectClean();
  });

  it('GIVEN a press by someone else THEN it is refused and the hand is untouched', async () => {
    const { deps } = await setUp();
    const round = await openHand(deps);
    const refused = await deps.services.games
      .blackjack(round._id, BEN, 'stand', round.step)
      .catch((e: unknown) => e);
    expect(isAppError(refused, 'NOT_YOUR_BUTTON')).toBe(true);
    expect(await deps.services.games.get(round._id)).toMatchObject({ status: 'playing', step: 0 });
  });

  it('GIVEN a double THEN the second stake is paid and the hand ends; without the Cookies it is refused and the hand goes on', async () => {
    // Seeded: the first hand dealt is one still waiting for the member (no natural), so the
    // member has exactly 50 left after the stake.
    const { deps } = await setUp(1_000_000, { [ANN]: 150 }, seededRng('double-test'));
    const round = await deps.services.games.startBlackjack({ roundId: id(), userId: ANN, bet: 100 });
    expect(round.status).toBe('playing');
    const refused = await deps.services.games
      .blackjack(round._id, ANN, 'double', round.step)
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_COOKIES', context: { balance: 50, needed: 100 } });
    const still = (await deps.services.games.get(round._id)) as RoundDoc;
    expect(still).toMatchObject({ status: 'playing' });
    expect(still.doubling).toBeUndefined();
    await deps.services.cookies.grant({ opId: 'top-up', adminId: ADMIN, to: ANN, amount: 50, reason: '' });
    const doubled = await deps.services.games.blackjack(round._id, ANN, 'double', still.step);
    expect(doubled).toMatchObject({ status: 'settled', stake: 200 });
    expect(doubled.hand?.player).toHaveLength(3);
    expect((await balances(deps)).ann).toBe(200 - 200 + (doubled.payout ?? 0));
    await expectClean();
  });

  it('GIVEN a hand left alone past blackjack_timeout_s THEN its timer stands it and settles', async () => {
    const { deps, clock } = await setUp();
    const round = await openHand(deps);
    clock.advance(599_000);
    await deps.scheduler.runDue();
    expect(await deps.services.games.get(round._id)).toMatchObject({ status: 'playing' });
    clock.advance(2_000);
    await deps.scheduler.runDue();
    const settled = (await deps.services.games.get(round._id)) as RoundDoc;
    expect(settled.status).toBe('settled');
    expect(settled.hand?.player).toEqual(round.hand?.player);
    expect(await balances(deps, settled)).toMatchObject({ pot: 0 });
    await expectClean();
  });

  it('GIVEN a rotated seed THEN every round played with it recomputes to what was recorded, and not before', async () => {
    const { deps } = await setUp();
    await deps.services.games.setMemberSeed(ANN, 'my-own-seed');
    const shown = await deps.services.games.fairness(ANN);
    const played = [
      await deps.services.games.playInstant('dice', {
        roundId: id(),
        userId: ANN,
        bet: 10,
        params: { target: 40 },
      }),
      await deps.services.games.playInstant('slots', { roundId: id(), userId: ANN, bet: 10 }),
      await openHand(deps),
    ];
    expect(played.map((r) => r.seed.serverSeedHash)).toEqual(played.map(() => shown.serverSeedHash));
    expect(played[0]?.seed).toMatchObject({ memberSeed: 'my-own-seed', nonce: 0 });
    expect(await deps.services.games.verify(played[0]?._id as string, ANN)).toMatchObject({
      status: 'sealed',
    });
    // The open hand keeps the seed secret: no rotation, and no verification of the hand itself.
    const hand = played[2] as RoundDoc;
    await expect(deps.services.games.rotateSeed(ANN)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      context: { messageKey: 'games:errors.seedInUse', roundId: hand._id, count: 1 },
    });
    await expect(deps.services.games.verify(hand._id, ANN)).rejects.toMatchObject({
      context: { messageKey: 'games:errors.roundInPlay', roundId: hand._id },
    });
    expect(await deps.services.games.blackjack(hand._id, ANN, 'stand', hand.step)).toMatchObject({
      status: 'settled',
    });
    const rotated = await deps.services.games.rotateSeed(ANN);
    expect(rotated.revealedHash).toBe(shown.serverSeedHash);
    expect(rotated.nextHash).not.toBe(shown.serverSeedHash);
    for (const round of played) {
      expect(await deps.services.games.verify(round._id, ANN)).toMatchObject({
        status: 'verified',
        matches: true,
        serverSeed: rotated.revealedSeed,
      });
    }
    expect((await deps.services.games.fairness(ANN)).nonce).toBe(0);
  });
});
