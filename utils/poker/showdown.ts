import { compare, evaluate } from '@poker-apprentice/hand-evaluator';
import type { Card } from './cards.js';
import type { Game, Hand } from './game.js';
import { finish } from './pots.js';

/** The evaluator's own (literal) card type; our cards are always of that form. */
type EvaluatorCard = Parameters<typeof evaluate>[0]['holeCards'][number];
const asEvaluatorCards = (cards: Card[]) => cards as EvaluatorCard[];

/** Ranks the hands still in (hand ranking is @poker-apprentice/hand-evaluator's) and pays the pots. */
export function showdown(g: Game): Game {
  const hand = g.hand as Hand;
  const shown = hand.players
    .filter((p) => !p.folded)
    .map((p) => {
      const best = evaluate({
        holeCards: asEvaluatorCards(p.hole),
        communityCards: asEvaluatorCards(hand.board),
      });
      return { seat: p.seat, cards: best.hand as Card[], strength: best.strength as number, evaluated: best };
    });
  return finish(
    g,
    shown.map(({ evaluated: _, ...s }) => s),
    true,
    (a, b) => {
      const x = shown.find((s) => s.seat === a)?.evaluated;
      const y = shown.find((s) => s.seat === b)?.evaluated;
      return x && y ? compare(x, y) : 0;
    },
  );
}
