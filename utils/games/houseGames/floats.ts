import { type FairnessInput, roundFloats } from '../fairness.js';

/** The `count` floats a round draws from its seeds. */
export function floatsFor(seeds: FairnessInput, count: number): number[] {
  return roundFloats(seeds.serverSeed, seeds.memberSeed, seeds.nonce, count);
}
