/**
 * `npm run worker -- --url http://127.0.0.1:8787 --id w-… --secret … [--tips N] [--poll-ms 5000]`:
 * a reference hunt worker. It signs every request (utils/hunt/signing.ts, docs/web.md, "Workers"),
 * and searches by hill climbing: it starts from a random guess, and after each draw keeps the
 * best-scoring guess it has seen and tips that guess with one weight moved.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { signedHeaders, splitUrl } from '../utils/hunt/signing.js';

const args = z
  .object({
    url: z.string().url(),
    id: z.string().min(1),
    secret: z.string().min(1),
    tips: z.coerce.number().int().min(1).default(1_000_000),
    'poll-ms': z.coerce.number().int().min(50).default(5_000),
  })
  .parse(
    parseArgs({
      options: {
        url: { type: 'string' },
        id: { type: 'string' },
        secret: { type: 'string' },
        tips: { type: 'string' },
        'poll-ms': { type: 'string' },
      },
    }).values,
  );

interface Status {
  round: number;
  closesAt: string;
  bonusPath: number | null;
  pending: { sequence: number; guess: number[] } | null;
  drawn: { round: number; guess: number[]; score: number }[];
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const text = body === undefined ? '' : JSON.stringify(body);
  const timestamp = String(Date.now());
  const nonce = randomBytes(12).toString('hex');
  const response = await fetch(new URL(path, args.url), {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...signedHeaders(args.id, args.secret, { method, ...splitUrl(path), timestamp, nonce, body: text }),
    },
    ...(body === undefined ? {} : { body: text }),
  });
  const json = (await response.json()) as T & { error?: { code: string; message: string } };
  if (!response.ok) {
    throw new Error(`${method} ${path}: ${response.status} ${json.error?.code} ${json.error?.message}`);
  }
  return json;
}

function next(status: Status): number[] {
  const mine = status.drawn.filter((d) => d.round === status.round).sort((a, b) => b.score - a.score);
  const best = mine[0]?.guess;
  if (!best) return Array.from({ length: 8 }, () => randomInt(0, 100));
  const guess = [...best];
  const i = randomInt(0, 8);
  guess[i] = Math.max(
    0,
    Math.min(99, (guess[i] as number) + (randomInt(0, 2) === 0 ? -1 : 1) * randomInt(1, 12)),
  );
  return guess;
}

let tipped = 0;
let lastWindow = '';
while (tipped < args.tips) {
  const status = await call<Status>('GET', '/api/hunt/status');
  if (status.closesAt !== lastWindow) {
    const guess = next(status);
    const result = await call<{ sequence: number }>('POST', '/api/hunt/tip', {
      guess,
      ...(status.bonusPath === null ? {} : { path: status.bonusPath }),
    });
    lastWindow = status.closesAt;
    tipped++;
    console.log(`tip #${result.sequence} for the window closing ${status.closesAt}: ${guess.join(',')}`);
  }
  await new Promise((resolve) => setTimeout(resolve, args['poll-ms']));
}
console.log(`worker: ${tipped} tips sent`);
