import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { CookieService } from '../../utils/cookies/cookieService.js';
import { COOKIES_ERROR_MESSAGES } from '../../utils/cookies/errors.js';
import { GivePromptStore } from '../../utils/cookies/givePromptStore.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { COOKIES_SETTINGS } from '../../utils/cookies/settings.js';
import { balance } from './balance.js';
import { cancelButtonHandler, give, giveButtonHandler } from './give.js';
import { leaderboard } from './leaderboard.js';

export const cookiesCommand = defineCommand({
  ...localized(COOKIES_MESSAGES, 'commands.cookies'),
  access: 'everyone',
  category: 'cookies:category',
  subcommands: [balance, give, leaderboard],
  components: [giveButtonHandler, cancelButtonHandler],
});

export const cookiesFeature: Feature = {
  name: 'cookies',
  commands: [cookiesCommand],
  messages: COOKIES_MESSAGES,
  settings: COOKIES_SETTINGS,
  errors: COOKIES_ERROR_MESSAGES,
  ensureIndexes: GivePromptStore.ensureIndexes,
  createServices: (infra) => ({ cookies: CookieService.create(infra, new GivePromptStore(infra.db)) }),
  tasks: (deps) => deps.services.cookies.tasks(),
};
