/**
 * `npm run verify-round -- --game dice --server-seed <seed> --member-seed <seed> --nonce 3 --bet 100 --target 50`
 * recomputes one house-game round from its seeds, with no database and no bot: the same code
 * the bot plays with (utils/games/). `/games verify` prints the exact line for a round once its
 * server seed is revealed. Its games and their choices come from the house games' entries.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { recompute } from '../utils/games/catalog.js';
import { hashServerSeed } from '../utils/games/fairness.js';
import { GAME_NAMES, houseGame } from '../utils/games/houseGames/index.js';

const args = z.object({
  game: z.enum(GAME_NAMES),
  'server-seed': z.string().min(1),
  'member-seed': z.string().min(1),
  nonce: z.coerce.number().int().min(0),
  bet: z.coerce.number().int().min(1).default(100),
});
/** Every game's choices, as `--side heads`, `--target 50`: a number when it reads as one. */
const choiceNames = [...new Set(GAME_NAMES.flatMap((name) => Object.keys(houseGame(name).params.shape)))];

function fail(problem: string): never {
  console.error(`verify-round: ${problem}`);
  process.exit(2);
}

const { values } = parseArgs({
  options: Object.fromEntries(
    [...Object.keys(args.shape), ...choiceNames].map((name) => [name, { type: 'string' as const }]),
  ),
});
const parsed = args.safeParse(values);
if (!parsed.success) fail(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
const a = parsed.data;
const game = houseGame(a.game);
const given = Object.fromEntries(
  Object.keys(game.params.shape)
    .filter((name) => values[name] !== undefined)
    .map((name) => [name, /^\d+$/.test(String(values[name])) ? Number(values[name]) : values[name]]),
);
const choices = game.params.safeParse({ ...game.defaults, ...given });
if (!choices.success) fail(choices.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
const params = choices.data as Record<string, string | number>;
console.log(`server seed hash: ${hashServerSeed(a['server-seed'])}`);
console.log(
  `${a.game} nonce ${a.nonce}: ${recompute({ game: a.game, bet: a.bet, params }, { serverSeed: a['server-seed'], memberSeed: a['member-seed'], nonce: a.nonce })}`,
);
