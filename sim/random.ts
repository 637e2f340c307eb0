import type { Rng } from '../src/rng.js';

/** A value drawn evenly in [low, high]. */
export function uniform(rng: Rng, [low, high]: [number, number]): number {
  return low + (rng.int(0, 1_000_000) / 1_000_000) * (high - low);
}

export function chance(rng: Rng, p: number): boolean {
  return rng.int(0, 1_000_000) < p * 1_000_000;
}

export function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[rng.int(0, list.length)] as T;
}
