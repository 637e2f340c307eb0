import type { Clock } from '../../src/clock.js';
import { invalidInputText } from '../../src/errors.js';
import { hashServerSeed } from '../games/fairness.js';
import {
  type Card,
  type ClientSeed,
  type Hand,
  type HandFairness,
  playableSeats,
  startHand,
} from './engine.js';
import { dealtFrom, defaultClientSeed, handDeck } from './handDeck.js';
import { type HandSeedStore, handIdOf } from './handSeedStore.js';
import type { TableDoc, TableStore } from './tableStore.js';

interface PokerFairnessDeps {
  seeds: HandSeedStore;
  tables: TableStore;
  clock: Clock;
  /** A deck of the test's choosing instead of the seeds' (its hand is not checkable). */
  shuffle?: () => Card[];
}

/** A hand recomputed from its revealed seeds (`/poker verify`). */
export interface HandCheck {
  handId: string;
  hand: number;
  serverSeed: string;
  serverSeedHash: string;
  /** SHA-256 of the revealed seed is the hash committed before the deal. */
  hashMatches: boolean;
  clientSeeds: ClientSeed[];
  deck: Card[];
  holes: { seat: number; userId: string; cards: Card[] }[];
  /** The five board cards the deck holds, in order (the hand may have ended before all were shown). */
  board: Card[];
  /**
   * Whether the recomputed cards are those the table dealt (its hole cards and the board it
   * showed); null once the table no longer keeps the hand (two hands later).
   */
  asDealt: boolean | null;
}

/**
 * Provably fair decks (ECONOMY.md, "Poker"): each hand's server seed is stored, and its hash
 * on the table, before the hand is dealt; the deal reads the stored seed, and combines it with
 * the players' client seeds and the hand number (handDeck.ts). Once the hand has ended anyone
 * may recompute it.
 */
export class PokerFairness {
  constructor(private readonly deps: PokerFairnessDeps) {}

  /** The hash of a new table's first hand, committed before anyone sits down. */
  async firstCommitment(tableId: string): Promise<string> {
    return (await this.deps.seeds.commit(tableId, 1, this.deps.clock.now())).serverSeedHash;
  }

  /** The next hand dealt from its committed seed; the hand after it committed now, before its deal. */
  async deal(table: TableDoc): Promise<Pick<TableDoc, 'game' | 'nextSeedHash'>> {
    if (this.deps.shuffle) return { game: startHand(table.game, this.deps.shuffle()) };
    // The hand this deal replaces, should a crash have come between its deal and its record.
    await this.recordDeal(table);
    const hand = table.game.handsPlayed + 1;
    const now = this.deps.clock.now();
    const seed = await this.deps.seeds.commit(table._id, hand, now);
    const next = await this.deps.seeds.commit(table._id, hand + 1, now);
    const players = playableSeats(table.game).map((seat) => ({
      seat,
      userId: table.game.seats[seat]?.userId as string,
    }));
    const own = await this.deps.seeds.clientSeeds(players.map((p) => p.userId));
    const clientSeeds = players.map((p) => ({
      ...p,
      seed: own.get(p.userId) ?? defaultClientSeed(p.userId),
    }));
    const fairness: HandFairness = {
      handId: seed._id,
      serverSeedHash: seed.serverSeedHash,
      serverSeed: seed.serverSeed,
      clientSeeds,
    };
    const deck = handDeck({ serverSeed: seed.serverSeed, clientSeeds: clientSeeds.map((c) => c.seed), hand });
    return { game: startHand(table.game, deck, fairness), nextSeedHash: next.serverSeedHash };
  }

  /** Keeps the client seeds of the table's hand with its seed, for when the table no longer holds it. */
  async recordDeal(table: TableDoc): Promise<void> {
    const fairness = table.game.hand?.fairness;
    if (fairness) await this.deps.seeds.recordDeal(fairness.handId, fairness.clientSeeds);
  }

  /** The member's own client seed for the hands dealt to them from now on. */
  setClientSeed(userId: string, seed: string): Promise<void> {
    return this.deps.seeds.setClientSeed(userId, seed, this.deps.clock.now());
  }

  /** Recomputes an ended hand from its seeds; refuses one not dealt, not ended or unknown. */
  async verify(handId: string): Promise<HandCheck> {
    const [tableId = '', n = ''] = handId.split('#');
    const number = Number(n);
    const table = await this.deps.tables.get(tableId);
    const stored = await this.deps.seeds.get(handIdOf(tableId, number));
    if (!table || !stored) throw unknownHand(handId);
    const kept = [table.game.hand, table.game.previous].find((h): h is Hand => h?.number === number);
    if (number > table.game.handsPlayed) {
      if (table.status === 'closed') throw unknownHand(handId);
      throw invalidInputText(`hand ${handId} is not dealt yet`, 'poker:errors.handNotDealt', {
        hand: handId,
      });
    }
    if (kept && kept.street !== 'done') {
      throw invalidInputText(`hand ${handId} is in play`, 'poker:errors.handInPlay', { hand: handId });
    }
    const clientSeeds = kept?.fairness?.clientSeeds ?? stored.players;
    if (!clientSeeds) throw unknownHand(handId);
    const deck = handDeck({
      serverSeed: stored.serverSeed,
      clientSeeds: clientSeeds.map((c) => c.seed),
      hand: number,
    });
    const { holes, board } = dealtFrom(deck, clientSeeds.length);
    const recomputed = clientSeeds.map((c, i) => ({ seat: c.seat, userId: c.userId, cards: holes[i] ?? [] }));
    return {
      handId: stored._id,
      hand: number,
      serverSeed: stored.serverSeed,
      serverSeedHash: kept?.fairness?.serverSeedHash ?? stored.serverSeedHash,
      hashMatches:
        hashServerSeed(stored.serverSeed) === (kept?.fairness?.serverSeedHash ?? stored.serverSeedHash),
      clientSeeds,
      deck,
      holes: recomputed,
      board,
      asDealt: kept ? asDealt(kept, recomputed, board) : null,
    };
  }
}

/** The table's record of the hand shows the recomputed cards: every hole card kept, and the board it showed. */
function asDealt(hand: Hand, holes: HandCheck['holes'], board: Card[]): boolean {
  const same = (a: readonly Card[], b: readonly Card[]) =>
    a.length === b.length && a.every((c, i) => c === b[i]);
  // The board keeps only the hole cards shown down; the hand in play keeps all of them.
  const holesMatch = hand.players.every((p) => {
    const dealt = holes.find((h) => h.seat === p.seat)?.cards ?? [];
    return p.hole.length === 0 || same(p.hole, dealt);
  });
  return holesMatch && same(hand.board, board.slice(0, hand.board.length));
}

function unknownHand(handId: string) {
  return invalidInputText(`no checkable hand ${handId}`, 'poker:errors.handUnknown', { hand: handId });
}
