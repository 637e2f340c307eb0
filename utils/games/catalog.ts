import type { FairnessInput } from './fairness.js';
import { floatsFor } from './houseGames/floats.js';
import {
  type GameName,
  type GameParams,
  houseGame,
  type InstantGameName,
  instantGame,
  type Played,
} from './houseGames/index.js';
import type { RoundDoc } from './roundStore.js';

export { blackjackDeck } from './houseGames/blackjack/index.js';
export type { GameName, InstantGameName } from './houseGames/index.js';

/** The largest payout of a round as a multiple of its bet (what the vault must cover). */
export function maxMultiplier(game: GameName, params: GameParams): number {
  return houseGame(game).maxMultiplier(params);
}

/** An instant game's result from the round's seeds: the same seeds always give the same result. */
export function playInstant(
  game: InstantGameName,
  seeds: FairnessInput,
  bet: number,
  params: GameParams,
): Played<Record<string, unknown>> {
  const entry = instantGame(game);
  return entry.play(floatsFor(seeds, entry.floatsNeeded), bet, params);
}

/** What the seeds alone decide, as text: an instant game's outcome, or a blackjack hand's shuffled deck. */
export function recompute(round: Pick<RoundDoc, 'game' | 'bet' | 'params'>, seeds: FairnessInput): string {
  return houseGame(round.game).recompute(seeds, round.bet, round.params);
}

/** What the round recorded, in the same form as `recompute`. */
export function recordedResult(round: RoundDoc): string | null {
  return houseGame(round.game).recorded(round);
}
