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
