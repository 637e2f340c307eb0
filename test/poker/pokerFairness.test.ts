import { beforeEach, describe, expect, it } from 'vitest';
import type { BotDeps } from '../../src/interactions/types.js';
import { hashServerSeed } from '../../utils/games/fairness.js';
import { defaultClientSeed, handDeck } from '../../utils/poker/handDeck.js';
import { HAND_SEEDS } from '../../utils/poker/handSeedStore.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('poker_fairness');
const ANN = '881000000000000001';
const BEN = '881000000000000002';

async function seatedTable(deps: BotDeps, tableId: string): Promise<TableDoc> {
  for (const p of [ANN, BEN]) {
    await deps.services.cookies.grant({
      opId: `grant-${tableId}-${p}`,
      adminId: 'admin',
      to: p,
      amount: 1_000,
      reason: '',
    });
  }
  const poker = deps.services.poker;
  await poker.create({ tableId, hostId: ANN, smallBlind: 5, maxBuyIn: 500, channelId: null, locale: 'en' });
  await poker.join(tableId, ANN, 300);
  return poker.join(tableId, BEN, 300);
}

/** The player to act folds: the hand ends. */
async function foldHand(deps: BotDeps, table: TableDoc): Promise<TableDoc> {
  const seat = table.game.hand?.toAct as number;
  return deps.services.poker.act(
    table._id,
    table.game.seats[seat]?.userId as string,
    { type: 'fold' },
    table.step,
  );
}

describe('provably fair poker hands', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a new table THEN the first hand is dealt from the seed whose hash the table showed before, with the players seeds in seat order', async () => {
    const { deps } = makeBotDeps(t);
    const seated = await seatedTable(deps, 'fair1');
    const committed = seated.nextSeedHash;
    expect(committed).toMatch(/^[0-9a-f]{64}$/);
    await deps.services.poker.fairness.setClientSeed(BEN, 'bens-own-seed');
    const dealt = await deps.services.poker.start('fair1', ANN);
    const fairness = dealt.game.hand?.fairness;
    expect(fairness).toMatchObject({
      handId: 'fair1#1',
      serverSeedHash: committed,
      clientSeeds: [
        { seat: 0, userId: ANN, seed: defaultClientSeed(ANN) },
        { seat: 1, userId: BEN, seed: 'bens-own-seed' },
      ],
    });
    expect(hashServerSeed(fairness?.serverSeed ?? '')).toBe(committed);
    // The next hand's seed is committed before it is dealt, and it is another seed.
    expect(dealt.nextSeedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(dealt.nextSeedHash).not.toBe(committed);
    const deck = handDeck({
      serverSeed: fairness?.serverSeed ?? '',
      clientSeeds: [defaultClientSeed(ANN), 'bens-own-seed'],
      hand: 1,
    });
    expect(dealt.game.hand?.players.map((p) => p.hole)).toEqual([
      [deck[0], deck[2]],
      [deck[1], deck[3]],
    ]);
  });

  it('GIVEN a hand in play THEN verify refuses it, and the next hand not dealt yet, and a hand that never was', async () => {
    const { deps } = makeBotDeps(t);
    await seatedTable(deps, 'fair2');
    await deps.services.poker.start('fair2', ANN);
    const verify = (id: string) => deps.services.poker.fairness.verify(id);
    await expect(verify('fair2#1')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      context: { messageKey: 'poker:errors.handInPlay', hand: 'fair2#1' },
    });
    await expect(verify('fair2#2')).rejects.toMatchObject({
      context: { messageKey: 'poker:errors.handNotDealt', hand: 'fair2#2' },
    });
    for (const id of ['fair2#3', 'nope#1', 'fair2#0']) {
      await expect(verify(id)).rejects.toMatchObject({ context: { messageKey: 'poker:errors.handUnknown' } });
    }
  });

  it('GIVEN a hand that ended THEN verify reveals its seed and recomputes exactly the cards dealt, also once the table no longer keeps it', async () => {
    const { deps } = makeBotDeps(t);
    const poker = deps.services.poker;
    await seatedTable(deps, 'fair3');
    const dealt = await poker.start('fair3', ANN);
    const ended = await foldHand(deps, dealt);
    expect(ended.game.hand?.street).toBe('done');
    const check = await poker.fairness.verify('fair3#1');
    expect(check).toMatchObject({ handId: 'fair3#1', hand: 1, hashMatches: true, asDealt: true });
    expect(check.serverSeedHash).toBe(dealt.game.hand?.fairness?.serverSeedHash);
    expect(check.holes.map((h) => h.cards)).toEqual(dealt.game.hand?.players.map((p) => p.hole));
    expect(check.deck).toHaveLength(52);
    // Two hands later the table keeps neither the hand nor its seeds: the seed store does.
    for (let hand = 2; hand <= 3; hand++) await foldHand(deps, await poker.start('fair3', ANN));
    const later = await poker.fairness.verify('fair3#1');
    expect(later).toMatchObject({ hashMatches: true, asDealt: null, deck: check.deck, holes: check.holes });
    expect(await t.db.collection(HAND_SEEDS).countDocuments({ tableId: 'fair3' })).toBe(4);
  });

  it('GIVEN a deal whose process died before the table was written THEN the retried deal uses the same stored seed and deals the same cards', async () => {
    const { deps } = makeBotDeps(t);
    const poker = deps.services.poker;
    const seated = await seatedTable(deps, 'fair4');
    const lost = await poker.fairness.deal(seated);
    expect((await poker.get('fair4'))?.game.hand).toBeNull();
    const dealt = await poker.start('fair4', ANN);
    expect(dealt.game.hand?.fairness).toEqual(lost.game.hand?.fairness);
    expect(dealt.game.hand?.fairness?.serverSeedHash).toBe(seated.nextSeedHash);
    expect(dealt.game.hand?.players).toEqual(lost.game.hand?.players);
    expect(dealt.nextSeedHash).toBe(lost.nextSeedHash);
  });
});
