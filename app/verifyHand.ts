/**
 * `npm run verify-hand -- --server-seed <seed> --client-seeds <seat order, comma-separated> --hand 4`
 * recomputes one poker hand's deck from its seeds, with no database and no bot: the same code
 * the tables deal with (utils/poker/handDeck.ts). `/poker verify` prints the exact line for a
 * hand once it has ended.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { hashServerSeed } from '../utils/games/fairness.js';
import { dealtFrom, handDeck } from '../utils/poker/handDeck.js';

const args = z.object({
  'server-seed': z.string().min(1),
  'client-seeds': z
    .string()
    .regex(/^[\w-]{1,64}(,[\w-]{1,64})+$/, 'two or more seeds, in seat order, comma-separated'),
  hand: z.coerce.number().int().min(1),
});

const { values } = parseArgs({
  options: Object.fromEntries(Object.keys(args.shape).map((name) => [name, { type: 'string' as const }])),
});
const parsed = args.safeParse(values);
if (!parsed.success) {
  console.error(
    `verify-hand: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`,
  );
  process.exit(2);
}
const a = parsed.data;
const clientSeeds = a['client-seeds'].split(',');
const deck = handDeck({ serverSeed: a['server-seed'], clientSeeds, hand: a.hand });
const { holes, board } = dealtFrom(deck, clientSeeds.length);
console.log(`server seed hash: ${hashServerSeed(a['server-seed'])}`);
console.log(`deck: ${deck.join(' ')}`);
for (const [i, cards] of holes.entries()) {
  console.log(`player ${i + 1} (seed ${clientSeeds[i]}): ${cards.join(' ')}`);
}
console.log(`board: ${board.join(' ')}`);
