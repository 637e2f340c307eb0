import { randomInt, randomUUID } from 'node:crypto';

/** Randomness for business logic; injected so tests and demos can fix it. */
export interface Rng {
  /** Uniform integer in [min, max). */
  int(min: number, max: number): number;
  /** A fresh unique id (operation attempts, error refs). */
  uuid(): string;
}

export const cryptoRng: Rng = {
  int: (min, max) => randomInt(min, max),
  uuid: () => randomUUID(),
};
