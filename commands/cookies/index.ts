import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { resolveLocale } from '../../src/i18n/i18n.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { BakeryShare } from '../../utils/cookies/bakeryShare.js';
import { BakeryShareStore } from '../../utils/cookies/bakeryShareStore.js';
import { COLLECT_REMINDERS, CollectReminders } from '../../utils/cookies/collectReminders.js';
import { CollectService } from '../../utils/cookies/collectService.js';
import { CollectStore } from '../../utils/cookies/collectStore.js';
import { CookieService } from '../../utils/cookies/cookieService.js';
import { COOKIES_ERROR_MESSAGES } from '../../utils/cookies/errors.js';
import { ExposureStore } from '../../utils/cookies/exposureStore.js';
import { GiveCap } from '../../utils/cookies/giveCap.js';
import { GIVE_RECEIVED, GiveCapStore } from '../../utils/cookies/giveCapStore.js';
import { GivePromptStore } from '../../utils/cookies/givePromptStore.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { PassiveMode } from '../../utils/cookies/passiveMode.js';
import { COOKIES_PASSIVE, PassiveStore } from '../../utils/cookies/passiveStore.js';
import { COOKIES_REMINDERS_SENT, ReminderStore } from '../../utils/cookies/reminderStore.js';
import { COOKIES_SETTINGS } from '../../utils/cookies/settings.js';
import { StealService } from '../../utils/cookies/stealService.js';
import { bakeryPost, bakeryShareText } from './bakeryPost.js';
import { balance } from './balance.js';
import { bakeryButtonHandler, collect } from './collect.js';
import { cookiesClawback } from './cookiesClawback.js';
import { cookiesGrant } from './cookiesGrant.js';
import { cancelButtonHandler, give, giveButtonHandler } from './give.js';
import { history } from './history.js';
import { leaderboard } from './leaderboard.js';
import { COOKIES_MENUS, giveFormHandler } from './menus.js';
import { passive } from './passive.js';
import { profile } from './profile.js';
import { deliverReminder } from './reminders.js';
import { steal } from './steal.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    collect: CollectService;
    collectReminders: CollectReminders;
    steal: StealService;
    passive: PassiveMode;
  }
}

export const cookiesCommand = defineCommand({
  ...localized(COOKIES_MESSAGES, 'commands.cookies'),
  access: 'everyone',
  category: 'cookies:category',
  subcommands: [balance, collect, give, steal, passive, profile, history, leaderboard],
  components: [giveButtonHandler, cancelButtonHandler, bakeryButtonHandler, giveFormHandler],
  userMenus: COOKIES_MENUS,
});

export const cookiesFeature: Feature = {
  name: 'cookies',
  // A give's prompt and passive mode are the member's alone; the steal exposure and the bakery's shares are books.
  personalData: {
    collections: {
      cookies_give_prompts: { what: 'cookies:privacy.cookies_give_prompts', forget: 'delete' },
      cookies_steal_exposure: { what: 'cookies:privacy.cookies_steal_exposure' },
      bakery_shares: { what: 'cookies:privacy.bakery_shares' },
      [COOKIES_PASSIVE]: { what: 'cookies:privacy.cookies_passive', forget: 'delete' },
      [GIVE_RECEIVED]: { what: 'cookies:privacy.cookies_give_received', forget: 'delete' },
      [COOKIES_REMINDERS_SENT]: { what: 'cookies:privacy.cookies_reminders_sent', forget: 'delete' },
    },
  },
  commands: [cookiesCommand],
  notifications: ['robbed'],
  reminders: COLLECT_REMINDERS,
  adminGroups: [
    {
      ...localized(COOKIES_MESSAGES, 'admin.commands.cookies'),
      subcommands: [cookiesGrant, cookiesClawback],
    },
    { ...localized(COOKIES_MESSAGES, 'admin.commands.bakery'), subcommands: [bakeryPost] },
  ],
  messages: COOKIES_MESSAGES,
  settings: COOKIES_SETTINGS,
  errors: COOKIES_ERROR_MESSAGES,
  async ensureIndexes(db) {
    await Promise.all([GivePromptStore.ensureIndexes(db), ReminderStore.ensureIndexes(db)]);
  },
  createServices(infra) {
    const economy = infra.cookieEconomy;
    const collects = new CollectStore(infra.db);
    const collectReminders = new CollectReminders({ ...infra, collects, sent: new ReminderStore(infra.db) });
    const passiveMode = new PassiveMode({ ...infra, store: new PassiveStore(infra.db) });
    const bakery = new BakeryShare({
      ...infra,
      economy,
      store: new BakeryShareStore(infra.db),
      reserve: infra.config.ledger.houseMinReserve,
    });
    return {
      cookies: CookieService.create(infra, {
        economy,
        prompts: new GivePromptStore(infra.db),
        collects,
        giveCap: new GiveCap({ ...infra, store: new GiveCapStore(infra.db) }),
      }),
      collect: new CollectService({
        ...infra,
        economy,
        store: collects,
        bakery,
        reminders: collectReminders,
      }),
      collectReminders,
      bakery,
      steal: new StealService({
        ...infra,
        economy,
        exposure: new ExposureStore(infra.db),
        bags: collects,
        passive: passiveMode,
      }),
      passive: passiveMode,
    };
  },
  tasks: (deps) => [
    ...deps.services.cookies.tasks(),
    // A reminder a member turned on, by direct message or a mention, in their language.
    ...deps.services.collectReminders.tasks((reminder) => deliverReminder(deps, reminder)),
    // The day's share, told in the bakery's channel (when set) in the server's language.
    ...deps.services.bakery.tasks(async (shared, locale) => {
      const i18n = deps.i18n.for(resolveLocale(locale));
      await deps.poster.post('cookies.bakery_channel', { content: bakeryShareText(shared, i18n) });
    }),
  ],
};
