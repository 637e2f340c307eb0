import type { Feature } from '../../src/features/feature.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { CookieService } from '../../utils/cookies/cookieService.js';
import { COOKIES_ERROR_MESSAGES } from '../../utils/cookies/errors.js';
import { GivePromptStore } from '../../utils/cookies/givePromptStore.js';
import { COOKIES_SETTINGS } from '../../utils/cookies/settings.js';
import { balance } from './balance.js';
import { cancelButtonHandler, give, giveButtonHandler } from './give.js';
import { leaderboard } from './leaderboard.js';

export const cookiesCommand = defineCommand({
  name: 'cookies',
  description: 'Your Cookies: balance, giving and the leaderboard',
  access: 'everyone',
  category: 'Cookies',
  subcommands: [balance, give, leaderboard],
  components: [giveButtonHandler, cancelButtonHandler],
});

export const cookiesFeature: Feature = {
  name: 'cookies',
  commands: [cookiesCommand],
  settings: COOKIES_SETTINGS,
  errors: COOKIES_ERROR_MESSAGES,
  ensureIndexes: GivePromptStore.ensureIndexes,
  createServices: (infra) => ({ cookies: CookieService.create(infra, new GivePromptStore(infra.db)) }),
  tasks: (deps) => deps.services.cookies.tasks(),
};
