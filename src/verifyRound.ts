/**
 * `npm run verify-round -- --game dice --server-seed <seed> --member-seed <seed> --nonce 3 --bet 100 --target 50`
 * recomputes one house-game round from its seeds, with no database and no bot: the same code
 * the bot plays with (utils/games/). `/games verify` prints the exact line for a round once its
 * server seed is revealed.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { recompute } from '../utils/games/catalog.js';
import { hashServerSeed } from '../utils/games/fairness.js';

const args = z.object({
  game: z.enum(['coinflip', 'dice', 'slots', 'blackjack']),
  'server-seed': z.string().min(1),
  'member-seed': z.string().min(1),
  nonce: z.coerce.number().int().min(0),
  bet: z.coerce.number().int().min(1).default(100),
  side: z.enum(['heads', 'tails']).optional(),
  target: z.coerce.number().int().min(5).max(95).optional(),
});

const { values } = parseArgs({
  options: Object.fromEntries(Object.keys(args.shape).map((name) => [name, { type: 'string' as const }])),
});
const parsed = args.safeParse(values);
if (!parsed.success) {
  console.error(
    `verify-round: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`,
  );
  process.exit(2);
}
const a = parsed.data;
const params: Record<string, string | number> = {
  ...(a.side ? { side: a.side } : {}),
  ...(a.target !== undefined ? { target: a.target } : {}),
};
if (a.game === 'coinflip' && !a.side) params.side = 'heads';
if (a.game === 'dice' && a.target === undefined) params.target = 50;
console.log(`server seed hash: ${hashServerSeed(a['server-seed'])}`);
console.log(
  `${a.game} nonce ${a.nonce}: ${recompute({ game: a.game, bet: a.bet, params }, { serverSeed: a['server-seed'], memberSeed: a['member-seed'], nonce: a.nonce })}`,
);
