import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { resolveLocale } from '../../src/i18n/i18n.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { GAMES_ERROR_MESSAGES } from '../../utils/games/errors.js';
import { seedSource } from '../../utils/games/fairness.js';
import { FairnessStore } from '../../utils/games/fairnessStore.js';
import { GameService } from '../../utils/games/gameService.js';
import { GAMES_MESSAGES } from '../../utils/games/messages.js';
import { RoundStore } from '../../utils/games/roundStore.js';
import { GAMES_SETTINGS } from '../../utils/games/settings.js';
import { COOKIE_KINDS } from '../../utils/money/cookieEconomy.js';
import { endedOwnerProblems } from '../../utils/money/holds/invariants.js';
import { VaultService } from '../../utils/vault/vaultService.js';
import { againButtonHandler, againFormHandler } from './again.js';
import { blackjackButtonHandler, blackjackCommand, handReply } from './blackjack.js';
import { fairnessRotate, fairnessSeed, fairnessShow, verify } from './fairness.js';
import { INSTANT_GAME_COMMANDS, roundReply } from './instantGames.js';

export const gamesCommand = defineCommand({
  ...localized(GAMES_MESSAGES, 'commands.games'),
  access: 'everyone',
  sanctionScope: 'games',
  category: 'games:category',
  subcommands: [...INSTANT_GAME_COMMANDS, blackjackCommand, verify],
  groups: [
    {
      ...localized(GAMES_MESSAGES, 'commands.fairness'),
      subcommands: [fairnessShow, fairnessSeed, fairnessRotate],
    },
  ],
  components: [blackjackButtonHandler, againButtonHandler, againFormHandler(roundReply)],
});

export const gamesFeature: Feature = {
  name: 'games',
  personalData: {
    collections: {
      games_rounds: { what: 'games:privacy.games_rounds' },
      // The seed not revealed yet would show the next rounds' outcomes before they are played.
      games_fairness: { what: 'games:privacy.games_fairness', hidden: { serverSeed: 'seed' } },
      games_revealed_seeds: { what: 'games:privacy.games_revealed_seeds' },
    },
  },
  commands: [gamesCommand],
  notifications: ['timeout'],
  messages: GAMES_MESSAGES,
  settings: GAMES_SETTINGS,
  errors: GAMES_ERROR_MESSAGES,
  async ensureIndexes(db) {
    await Promise.all([RoundStore.ensureIndexes(db), FairnessStore.ensureIndexes(db)]);
  },
  createServices(infra) {
    const economy = infra.cookieEconomy;
    // The vault's liquidity rule, read fresh for every bet (the vault feature owns the rule).
    const vault = VaultService.liquidityReader(infra, economy);
    return {
      games: new GameService({
        ...infra,
        economy,
        rounds: new RoundStore(infra.db),
        fairness: new FairnessStore(infra.db, seedSource(infra.rng)),
        liquidity: vault,
      }),
    };
  },
  // A hand its timer ended (stood for an absent member) is told on the hand's own message, in
  // the member's language; a hand whose buttons were never pressed (its message unknown: only a
  // press tells it) or whose message was deleted, in a post to its channel that mentions the member.
  tasks: (deps) =>
    deps.services.games.tasks(async (round) => {
      if (round.game !== 'blackjack' || !round.channelId) return;
      const reply = handReply(round, deps.i18n.for(resolveLocale(round.locale)));
      const edited = round.messageId
        ? await deps.poster.edit(round.channelId, round.messageId, { ...reply, buttons: reply.buttons ?? [] })
        : 'gone';
      if (edited === 'gone')
        await deps.poster.postIn(round.channelId, {
          content: [`<@${round.userId}>`, reply.content].filter(Boolean).join(' '),
          embeds: reply.embeds ?? [],
          notify: await deps.profiles.toNotify('games.timeout', [round.userId]),
        });
    }),
  // An ended round holds nothing, and paid its member exactly the payout it recorded.
  checkInvariants: (db, _config, _ledger, _now, since) =>
    endedOwnerProblems(db, 'game', new RoundStore(db).ended(since), (round) => ({
      name: `game round ${round._id}: ${round.status}`,
      paidAs: 'payout',
      kind: COOKIE_KINDS.gamePayout,
      paidTo: [round.userId],
      owed: round.status === 'settled' ? (round.payout ?? 0) : 0,
    })),
};
