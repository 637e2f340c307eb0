import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { CookieEconomy } from '../../utils/cookieEconomy.js';
import { GAMES_ERROR_MESSAGES } from '../../utils/games/errors.js';
import { seedSource } from '../../utils/games/fairness.js';
import { FairnessStore } from '../../utils/games/fairnessStore.js';
import { GameService } from '../../utils/games/gameService.js';
import { GAMES_MESSAGES } from '../../utils/games/messages.js';
import { RoundStore } from '../../utils/games/roundStore.js';
import { GAMES_SETTINGS } from '../../utils/games/settings.js';
import { VaultService } from '../../utils/vault/vaultService.js';
import { blackjackButtonHandler, blackjackCommand } from './blackjack.js';
import { fairnessRotate, fairnessSeed, fairnessShow, verify } from './fairness.js';
import { coinflipCommand, diceCommand, slotsCommand } from './instantGames.js';

export const gamesCommand = defineCommand({
  ...localized(GAMES_MESSAGES, 'commands.games'),
  access: 'everyone',
  category: 'games:category',
  subcommands: [coinflipCommand, diceCommand, slotsCommand, blackjackCommand, verify],
  groups: [
    {
      ...localized(GAMES_MESSAGES, 'commands.fairness'),
      subcommands: [fairnessShow, fairnessSeed, fairnessRotate],
    },
  ],
  components: [blackjackButtonHandler],
});

export const gamesFeature: Feature = {
  name: 'games',
  commands: [gamesCommand],
  messages: GAMES_MESSAGES,
  settings: GAMES_SETTINGS,
  errors: GAMES_ERROR_MESSAGES,
  async ensureIndexes(db) {
    await Promise.all([RoundStore.ensureIndexes(db), FairnessStore.ensureIndexes(db)]);
  },
  createServices(infra) {
    const economy = new CookieEconomy(infra.ledger);
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
  tasks: (deps) => deps.services.games.tasks(),
};
