import { createHash, createHmac } from 'node:crypto';
import type { Rng } from '../../src/rng.js';

/**
 * Provably fair outcomes (ECONOMY.md, "Provably fair"). Every round's randomness is
 * HMAC-SHA256(server seed, "<member seed>:<nonce>:<block>"), read four bytes at a time as
 * floats in [0, 1). The member sees SHA-256(server seed) before betting, so the house cannot
 * change the seed afterwards; after a rotation the seed is revealed and anyone can recompute
 * every round played with it (`npm run verify-round`).
 */

/**
 * New seeds from the injected generator: in the bot that is crypto.randomBytes (`cryptoRng`),
 * a secret 32-byte server seed and an 8-byte member seed until the member picks their own.
 */
export function seedSource(rng: Rng): { server: () => string; member: () => string } {
  return { server: () => rng.secret(32), member: () => rng.secret(8) };
}

/** The commitment shown before betting. */
export function hashServerSeed(serverSeed: string): string {
  return createHash('sha256').update(serverSeed).digest('hex');
}

/** The round's first `count` floats: 8 per HMAC block, each from 4 bytes (big-endian / 2^32). */
export function roundFloats(serverSeed: string, memberSeed: string, nonce: number, count: number): number[] {
  const floats: number[] = [];
  for (let block = 0; floats.length < count; block++) {
    const digest = createHmac('sha256', serverSeed).update(`${memberSeed}:${nonce}:${block}`).digest();
    for (let i = 0; i + 4 <= digest.length && floats.length < count; i += 4) {
      floats.push(digest.readUInt32BE(i) / 2 ** 32);
    }
  }
  return floats;
}

/** The seeds a round was played with: enough to recompute it once the server seed is revealed. */
export interface RoundSeed {
  serverSeedHash: string;
  memberSeed: string;
  nonce: number;
}

/** Everything a round's randomness is computed from. */
export interface FairnessInput {
  serverSeed: string;
  memberSeed: string;
  nonce: number;
}
