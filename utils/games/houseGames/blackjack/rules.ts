/**
 * Blackjack as pure rules: one 52-card deck shuffled for each hand from the round's floats,
 * dealer stands on all 17s, a natural pays 3:2, double on the first two cards only, no split,
 * no insurance. A press is a function from one state to the next, so a hand can be stored,
 * reloaded after a restart and continued, and recomputed from its seeds.
 */

/** Cards are 0–51: rank = card % 13 (0 = ace, 9–12 = ten, jack, queen, king), suit = card / 13. */
export type Card = number;

export interface BlackjackState {
  deck: Card[];
  /** Index of the next card to deal. */
  next: number;
  player: Card[];
  dealer: Card[];
  doubled: boolean;
  /** `playing` waits for the member; every other phase is final. */
  phase: 'playing' | 'done';
}

export type BlackjackAction = 'hit' | 'stand' | 'double';

export const BLACKJACK_SHUFFLE_FLOATS = 51;
/** A double that wins returns four times the bet: the most one hand can pay. */
export const BLACKJACK_MAX_MULTIPLIER = 4;

/** Fisher–Yates over 0–51 with the round's floats. */
export function shuffledDeck(floats: number[]): Card[] {
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor((floats[deck.length - 1 - i] ?? 0) * (i + 1));
    [deck[i], deck[j]] = [deck[j] as Card, deck[i] as Card];
  }
  return deck;
}

function cardValue(card: Card): number {
  const rank = card % 13;
  return rank === 0 ? 11 : Math.min(rank + 1, 10);
}

/** Best total of a hand, and whether an ace still counts 11 (a soft hand). */
export function handValue(cards: readonly Card[]): { total: number; soft: boolean } {
  let total = 0;
  let aces = 0;
  for (const card of cards) {
    total += cardValue(card);
    if (card % 13 === 0) aces++;
  }
  while (total > 21 && aces > 0) {
    total -= 10;
    aces--;
  }
  return { total, soft: aces > 0 };
}

export function isNatural(cards: readonly Card[]): boolean {
  return cards.length === 2 && handValue(cards).total === 21;
}

export function cardLabel(card: Card): string {
  const rank = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'][card % 13];
  const suit = ['♠', '♥', '♦', '♣'][Math.floor(card / 13)];
  return `${rank}${suit}`;
}

function draw(state: BlackjackState, to: 'player' | 'dealer'): BlackjackState {
  const card = state.deck[state.next] as Card;
  return { ...state, next: state.next + 1, [to]: [...state[to], card] };
}

function dealerPlays(state: BlackjackState): BlackjackState {
  let s: BlackjackState = { ...state, phase: 'done' };
  if (handValue(s.player).total > 21) return s;
  while (handValue(s.dealer).total < 17) s = draw(s, 'dealer');
  return s;
}

/** The first four cards; a natural on either side ends the hand at once (the dealer peeks). */
export function deal(deck: Card[]): BlackjackState {
  let s: BlackjackState = { deck, next: 0, player: [], dealer: [], doubled: false, phase: 'playing' };
  s = draw(draw(draw(draw(s, 'player'), 'dealer'), 'player'), 'dealer');
  if (isNatural(s.player) || isNatural(s.dealer)) return { ...s, phase: 'done' };
  return s;
}

export function canDouble(state: BlackjackState): boolean {
  return state.phase === 'playing' && state.player.length === 2;
}

/** The state after the member's press (the press must be allowed: `phase` is `playing`). */
export function act(state: BlackjackState, action: BlackjackAction): BlackjackState {
  if (state.phase !== 'playing') return state;
  if (action === 'stand') return dealerPlays(state);
  if (action === 'double') return dealerPlays({ ...draw(state, 'player'), doubled: true });
  const s = draw(state, 'player');
  return handValue(s.player).total >= 21 ? dealerPlays(s) : s;
}

/** What a finished hand pays back for a bet (the doubled stake counts when `doubled`). */
export function blackjackPayout(state: BlackjackState, bet: number): number {
  const stake = state.doubled ? bet * 2 : bet;
  const player = handValue(state.player).total;
  const dealer = handValue(state.dealer).total;
  if (isNatural(state.player)) return isNatural(state.dealer) ? stake : Math.floor(stake * 2.5);
  if (isNatural(state.dealer) || player > 21) return 0;
  if (dealer > 21 || player > dealer) return stake * 2;
  return player === dealer ? stake : 0;
}

/**
 * The plain basic strategy the house-edge simulation plays (hit below 12, against a strong
 * dealer card below 17, double 10 and 11 against a weaker card; soft hands stand from 18).
 */
export function basicStrategy(state: BlackjackState): BlackjackAction {
  const { total, soft } = handValue(state.player);
  const up = cardValue(state.dealer[0] as Card);
  if (canDouble(state) && !soft && (total === 11 || (total === 10 && up < 10))) return 'double';
  if (soft) return total >= 18 ? 'stand' : 'hit';
  if (total <= 11) return 'hit';
  if (total >= 17) return 'stand';
  if (total === 12) return up >= 4 && up <= 6 ? 'stand' : 'hit';
  return up >= 7 ? 'hit' : 'stand';
}
