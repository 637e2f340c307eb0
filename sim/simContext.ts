import type { BotDeps } from '../src/interactions/types.js';
import type { Rng } from '../src/rng.js';
import type { Attempts } from './attempts.js';
import type { MemberSettings } from './memberSettings.js';

/** What every part of a run shares. */
export interface SimContext {
  readonly deps: BotDeps;
  /** The simulation's own choices (who acts, what they bet); the bot has its own Rng. */
  readonly rng: Rng;
  readonly attempts: Attempts;
  /** The settings the members' choices depend on, read again every simulated hour. */
  settings: MemberSettings;
}
