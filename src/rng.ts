import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';

/** Randomness for business logic; injected so tests and demos can fix it. */
export interface Rng {
  /** Uniform integer in [min, max). */
  int(min: number, max: number): number;
  /** A fresh unique id (operation attempts, error refs). */
  uuid(): string;
  /** `bytes` secret random bytes as hex (the house games' server seeds). */
  secret(bytes: number): string;
}

/** The system's cryptographic generator: what the bot uses. */
export const cryptoRng: Rng = {
  int: (min, max) => randomInt(min, max),
  uuid: () => randomUUID(),
  secret: (bytes) => randomBytes(bytes).toString('hex'),
};

/**
 * A reproducible stream for console scripts, so a scripted demo deals the same cards and rolls
 * the same dice on every run: block n is HMAC-SHA256(seed, n), the construction the house
 * games already use for their outcomes (utils/games/fairness.ts). Never used by the bot.
 */
export function seededRng(seed: string): Rng {
  let counter = 0;
  const block = () => createHmac('sha256', seed).update(String(counter++)).digest();
  const hex = (bytes: number) => {
    let out = '';
    while (out.length < bytes * 2) out += block().toString('hex');
    return out.slice(0, bytes * 2);
  };
  return {
    int: (min, max) => min + Math.floor((block().readUInt32BE(0) / 2 ** 32) * (max - min)),
    // Ids only need to be unique, also across runs on a kept database; they decide no outcome.
    uuid: () => randomUUID(),
    secret: hex,
  };
}
