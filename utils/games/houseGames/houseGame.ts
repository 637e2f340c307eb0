import type { APIApplicationCommandBasicOption } from 'discord.js';
import type { z } from 'zod';
import type { Messages, Translator } from '../../../src/i18n/i18n.js';
import type { Rng } from '../../../src/rng.js';
import type { FairnessInput } from '../fairness.js';
import { floatsFor } from './floats.js';

/** A round's choices beyond its bet (the coin's side, the dice's target), as stored on the round. */
export type GameParams = Record<string, string | number>;

/** What a finished round pays back to the member, stake included (0: the stake is lost). */
export interface Played<O> {
  payout: number;
  outcome: O;
}

/**
 * A house game decided by one draw: pure, so the same floats always give the same outcome
 * (that is what makes a round verifiable) and the simulation test runs the real rules.
 */
export interface InstantGame<P, O> {
  name: string;
  floatsNeeded: number;
  /** The largest payout as a multiple of the bet: the vault must cover it before the round starts. */
  maxMultiplier(params: P): number;
  play(floats: number[], bet: number, params: P): Played<O>;
}

/** What a stored round (`RoundDoc`) holds of its result: an instant outcome, or a hand's deck. */
export interface RecordedRound {
  outcome?: Record<string, unknown>;
  hand?: { deck: readonly number[] };
}

/** One row of the edge bench and of the edge test: the game at these params, and its documented edge. */
export interface EdgeCase {
  label: string;
  params: GameParams;
  /** The house edge ECONOMY.md documents, as a share of stakes. */
  documented: number;
  /** How far the test's measured edge may lie from it (about four standard errors of its run). */
  tolerance: number;
  /** Rounds the test measures (the bench runs its own count). */
  rounds: number;
}

/**
 * One house game as everything around it sees it: the bot (its subcommand, its reply, the
 * vault's check), `npm run verify-round`, `/games verify`, `npm run bench:edge`, the edge test,
 * `/vault show` and the simulation all read this entry, never a list of their own. A game is
 * its folder (`utils/games/houseGames/<name>/`: rules, entry, texts) and its line in
 * `HOUSE_GAMES`; the registry test fails on a game missing from any list derived from it.
 */
interface HouseGameBase<N extends string> {
  name: N;
  /** Its texts, merged into the games namespace under its name (`games:<name>.title`). */
  messages: Messages;
  /** Its choices (beyond the bet) as its subcommand, verify-round and the simulation give them. */
  params: z.ZodObject;
  /** What verify-round assumes for a choice it is not given. */
  defaults?: GameParams;
  /** The largest payout as a multiple of the bet (what the vault must be able to cover). */
  maxMultiplier(params: GameParams): number;
  /** What its seeds alone decide, as text (verify-round, `/games verify`). */
  recompute(seeds: FairnessInput, bet: number, params: GameParams): string;
  /** What a round recorded, in the same form as `recompute` (null before it is decided). */
  recorded(round: RecordedRound): string | null;
  /** One round played by the simulation's fixed strategy: staked and paid back. */
  simulate(seeds: FairnessInput, bet: number, params: GameParams): { staked: number; paid: number };
  /** The rows of the edge bench and the edge test (at least one). */
  edgeCases: readonly EdgeCase[];
  /** The choices `/vault show` quotes its largest bet at; none: it is not quoted. */
  vaultQuote?: GameParams;
  /** The choices a simulated member plays with. */
  simParams(rng: Rng): GameParams;
}

/** A game of one draw: its subcommand and its reply are derived from the entry (commands/games). */
export interface InstantHouseGame<N extends string = string> extends HouseGameBase<N> {
  kind: 'instant';
  floatsNeeded: number;
  play(floats: number[], bet: number, params: GameParams): Played<Record<string, unknown>>;
  /** Its subcommand's options beyond the bet, in Discord's shape, texts from its catalog. */
  options: readonly APIApplicationCommandBasicOption[];
  /** What was drawn, as the round's reply says it. */
  drawn(outcome: Record<string, unknown>, params: GameParams, i18n: Translator): string;
}

/** A game with turns (blackjack): its own service flow, subcommand and buttons. */
export interface HandHouseGame<N extends string = string> extends HouseGameBase<N> {
  kind: 'hand';
}

export type HouseGame<N extends string = string> = InstantHouseGame<N> | HandHouseGame<N>;

/**
 * An instant game's entry from its rules: what its seeds decide (`recompute`), what a round
 * recorded (`recorded`) and one simulated round (`simulate`) all follow from `play` on the
 * round's floats, so an entry states only what is its own.
 */
export function defineInstantGame<N extends string>(
  entry: Omit<InstantHouseGame<N>, 'recompute' | 'recorded' | 'simulate'>,
): InstantHouseGame<N> {
  const played = (seeds: FairnessInput, bet: number, params: GameParams) =>
    entry.play(floatsFor(seeds, entry.floatsNeeded), bet, params);
  return {
    ...entry,
    recompute: (seeds, bet, params) => JSON.stringify(played(seeds, bet, params).outcome),
    recorded: (round) => (round.outcome ? JSON.stringify(round.outcome) : null),
    simulate: (seeds, bet, params) => ({ staked: bet, paid: played(seeds, bet, params).payout }),
  };
}
