import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { handIdOf } from '../../utils/poker/handSeedStore.js';
import { POKER_MESSAGES } from '../../utils/poker/messages.js';
import type { HandCheck } from '../../utils/poker/pokerFairness.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { parseOptions } from '../options.js';
import { cardText } from './boardText.js';

/** How much of a seed's hash the board shows: `/poker verify` shows all of it. */
const SHORT_HASH = 16;

/**
 * The board's line about its seeds: the hash of the hand in play, or of the next hand before
 * it is dealt, and how to check the last hand once it has ended.
 */
export function fairLines(t: TableDoc, i18n: Translator): string[] {
  const hand = t.game.hand;
  const fair = hand?.fairness;
  if (hand && fair && hand.street !== 'done')
    return [
      `-# ${i18n.t('poker:fair.live', { hand: fair.handId, hash: fair.serverSeedHash.slice(0, SHORT_HASH) })}`,
    ];
  const parts = [
    t.status !== 'closed' && t.nextSeedHash
      ? i18n.t('poker:fair.next', {
          hand: handIdOf(t._id, t.game.handsPlayed + 1),
          hash: t.nextSeedHash.slice(0, SHORT_HASH),
        })
      : '',
    fair ? i18n.t('poker:fair.last', { hand: fair.handId }) : '',
  ].filter(Boolean);
  return parts.length > 0 ? [`-# ${parts.join(' · ')}`] : [];
}

export const verify: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(POKER_MESSAGES, 'commands.verify'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(POKER_MESSAGES, 'commands.verifyHand'),
        required: true,
        max_length: 60,
      },
    ],
  },
  async run({ deps, invocation, i18n }) {
    const { hand } = parseOptions(
      z.object({
        hand: z
          .string()
          .trim()
          .regex(/^(?:[\w-]{1,40}#|#)?\d{1,9}$/, 'poker:errors.handFormat'),
      }),
      invocation,
    );
    const poker = deps.services.poker;
    const [tableId, number] = hand.includes('#') ? hand.split('#') : ['', hand];
    const table = tableId ? tableId : (await poker.tableIn(invocation.channelId ?? null))._id;
    const check = await poker.fairness.verify(handIdOf(table, Number(number)));
    return { ephemeral: true, content: checkText(check, i18n) };
  },
};

function checkText(c: HandCheck, i18n: Translator): string {
  const cards = (list: readonly string[]) => list.map(cardText).join(' ');
  const verdict = !c.hashMatches || c.asDealt === false ? 'differs' : c.asDealt ? 'matches' : 'recomputed';
  const seeds = c.clientSeeds.map((s) => s.seed);
  return [
    i18n.t(`poker:verify.${verdict}`, { hand: c.handId }),
    i18n.t('poker:verify.seeds', {
      serverSeed: c.serverSeed,
      hash: c.serverSeedHash,
      clients: c.clientSeeds.map((s) => `<@${s.userId}> \`${s.seed}\``).join(', '),
      number: c.hand,
    }),
    i18n.t('poker:verify.holes', {
      holes: c.holes.map((h) => `<@${h.userId}> **${cards(h.cards)}**`).join(' · '),
    }),
    i18n.t('poker:verify.board', {
      board: [cards(c.board.slice(0, 3)), cards(c.board.slice(3, 4)), cards(c.board.slice(4))].join(' | '),
    }),
    i18n.t('poker:verify.deck', { deck: cards(c.deck) }),
    i18n.t('poker:verify.offline', {
      command: `npm run verify-hand -- --server-seed ${c.serverSeed} --client-seeds ${seeds.join(',')} --hand ${c.hand}`,
    }),
  ].join('\n');
}

export const seed: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(POKER_MESSAGES, 'commands.seed'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(POKER_MESSAGES, 'commands.seedValue'),
        required: true,
        min_length: 1,
        max_length: 64,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { value } = parseOptions(
      z.object({
        value: z
          .string()
          .trim()
          .regex(/^[\w-]{1,64}$/, 'poker:errors.seedFormat'),
      }),
      invocation,
    );
    await deps.services.poker.fairness.setClientSeed(actor.id, value);
    return { ephemeral: true, content: i18n.t('poker:seed.set', { seed: value }) };
  },
};
