import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { resolveLocale } from '../../src/i18n/i18n.js';
import { defineCommand, defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { CommandContext, Reply, Subcommand } from '../../src/interactions/types.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import type { PokerAction } from '../../utils/poker/engine.js';
import { HandSeedStore } from '../../utils/poker/handSeedStore.js';
import { HandStore } from '../../utils/poker/handStore.js';
import { POKER_MESSAGES } from '../../utils/poker/messages.js';
import { PokerHands } from '../../utils/poker/pokerHands.js';
import { PokerService, seatOf } from '../../utils/poker/pokerService.js';
import { POKER_SETTINGS } from '../../utils/poker/settings.js';
import { tableProblems } from '../../utils/poker/tableChecks.js';
import { type TableDoc, TableStore } from '../../utils/poker/tableStore.js';
import { parseOptions } from '../options.js';
import { actButton, boardMessage, boardTiming, cardText, raiseTo, sitButton, tableButton } from './board.js';
import { outcomeText, timedLine } from './boardText.js';
import { seed, verify } from './fairness.js';
import { history, leaderboard, stats } from './history.js';
import { join } from './join.js';
import { raiseHandlers } from './raiseForm.js';
import { sitHandlers } from './sitForm.js';
import { tournament } from './tournament.js';

async function board(ctx: CommandContext, table: TableDoc, update: boolean): Promise<Reply> {
  // The board is the channel's: it speaks the server's language.
  return {
    ...boardMessage(table, ctx.serverI18n, await boardTiming(ctx.deps)),
    ...(update ? { update: true } : {}),
  };
}

const create: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(POKER_MESSAGES, 'commands.create'),
    options: [
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(POKER_MESSAGES, 'commands.smallBlind'),
        min_value: 1,
        max_value: 1_000_000,
      },
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(POKER_MESSAGES, 'commands.maxBuyIn'),
        min_value: 1,
      },
    ],
  },
  async run(ctx) {
    const { small_blind, max_buy_in } = parseOptions(
      z.object({
        small_blind: z.number().int().min(1).optional(),
        max_buy_in: z.number().int().min(1).optional(),
      }),
      ctx.invocation,
    );
    const table = await ctx.deps.services.poker.create({
      tableId: ctx.invocation.id,
      hostId: ctx.actor.id,
      ...(small_blind ? { smallBlind: small_blind } : {}),
      ...(max_buy_in ? { maxBuyIn: max_buy_in } : {}),
      channelId: ctx.invocation.channelId ?? null,
      guildId: ctx.invocation.guildId,
      locale: ctx.serverI18n.locale,
    });
    // The board is the message every timer edits: known from the start, not from a first press.
    return {
      ...(await board(ctx, table, false)),
      onSent: ({ messageId }) => ctx.deps.services.poker.rememberMessage(table, messageId),
    };
  },
};

const actHandler = defineComponentHandler(actButton, {
  async run(ctx, { table: tableId, action, step }) {
    const poker = ctx.deps.services.poker;
    const table = await poker.get(tableId);
    if (table) await poker.rememberMessage(table, ctx.invocation.messageId);
    const seat = table ? seatOf(table, ctx.actor.id) : null;
    let move: PokerAction;
    if (action === 'fold' || action === 'check' || action === 'call') move = { type: action };
    else if (!table || seat === null) move = { type: 'call' };
    else move = { type: 'raise', to: raiseTo(table, seat, action) };
    return board(ctx, await poker.act(tableId, ctx.actor.id, move, step), true);
  },
});

const sitHandler = defineComponentHandler(sitButton, {
  async run(ctx, { table, amount }) {
    const joined = await ctx.deps.services.poker.join(table, ctx.actor.id, amount);
    await ctx.deps.services.poker.rememberMessage(joined, ctx.invocation.messageId);
    return board(ctx, joined, true);
  },
});

const tableHandler = defineComponentHandler(tableButton, {
  async run(ctx, { table, what }) {
    const poker = ctx.deps.services.poker;
    switch (what) {
      case 'cards': {
        const cards = await poker.cards(table, ctx.actor.id);
        const board = (await poker.get(table))?.game.hand?.board ?? [];
        const lines = [ctx.i18n.t('poker:cards', { cards: cards.map(cardText).join(' ') })];
        if (board.length > 0)
          lines.push(ctx.i18n.t('poker:board.cards', { cards: board.map(cardText).join(' ') }));
        return { ephemeral: true, content: lines.join('\n') };
      }
      case 'start':
        return board(ctx, await poker.start(table, ctx.actor.id), true);
      case 'leave':
        return board(ctx, await poker.leave(table, ctx.actor.id), true);
      case 'close':
        return board(ctx, await poker.close(table, ctx.actor.id), true);
      case 'back':
        return board(ctx, await poker.back(table, ctx.actor.id), true);
    }
  },
});

export const pokerCommand = defineCommand({
  ...localized(POKER_MESSAGES, 'commands.poker'),
  access: 'everyone',
  sanctionScope: 'games',
  category: 'poker:category',
  subcommands: [
    create,
    tournament((ctx, table) => board(ctx, table, false)),
    join,
    verify,
    seed,
    history,
    stats,
    leaderboard,
  ],
  components: [actHandler, sitHandler, tableHandler, ...raiseHandlers(board), ...sitHandlers(board)],
});

export const pokerFeature: Feature = {
  name: 'poker',
  personalData: {
    collections: {
      poker_tables: { what: 'poker:privacy.poker_tables' },
      poker_hands: { what: 'poker:privacy.poker_hands' },
      poker_hand_players: { what: 'poker:privacy.poker_hand_players' },
      // A hand's server seed stays secret while it is in play.
      poker_hand_seeds: { what: 'poker:privacy.poker_hand_seeds', hidden: { serverSeed: 'seed' } },
      poker_client_seeds: { what: 'poker:privacy.poker_client_seeds', forget: 'delete' },
    },
    // A seat at an open table: the member's chips are in play there.
    inPlay: async (services, member) => ({ poker: (await services.poker.openTablesOf(member)).length }),
  },
  commands: [pokerCommand],
  messages: POKER_MESSAGES,
  settings: POKER_SETTINGS,
  ensureIndexes: async (db) => {
    await TableStore.ensureIndexes(db);
    await HandStore.ensureIndexes(db);
    await HandSeedStore.ensureIndexes(db);
  },
  createServices: (infra) => ({
    poker: new PokerService({
      ...infra,
      economy: infra.cookieEconomy,
      tables: new TableStore(infra.db),
      hands: new HandStore(infra.db),
      seeds: new HandSeedStore(infra.db, () => infra.rng.secret(32)),
    }),
    pokerHands: new PokerHands({ hands: new HandStore(infra.db) }),
  }),
  // A timer that moves a table on (a turn run out, the next deal, closing) edits its board,
  // which says first what the timer did: whatever the settings, the players see it there. A
  // table closed by a timer is also said in its channel (an edit pings nobody, and the players
  // were paid out), and so is any timed outcome of a table whose message is not known yet or
  // was deleted.
  tasks: (deps) =>
    deps.services.poker.tasks(async (table, outcome) => {
      if (!table.channelId) return;
      const i18n = deps.i18n.for(resolveLocale(table.locale));
      const edited = table.messageId
        ? await deps.poster.edit(
            table.channelId,
            table.messageId,
            boardMessage(table, i18n, await boardTiming(deps), outcome),
          )
        : 'gone';
      const text = outcomeText(outcome, i18n);
      if (text && (edited === 'gone' || outcome.what === 'closed')) {
        await deps.poster.postIn(table.channelId, { content: timedLine(text) });
      }
    }),
  // Every table's books (utils/poker/tableChecks.ts).
  checkInvariants: (db, config, ledger, now, since) =>
    // A move may wait for the ledger's recovery, then for its table's timer.
    tableProblems(db, ledger, now, config.ledger.recoveryGraceMs + RECOVERY_GRACE_MS, since),
};
