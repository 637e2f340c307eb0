import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { huntFacts } from '../../utils/hunt/guide.js';
import { huntRoutes } from '../../utils/hunt/httpRoutes.js';
import { HuntService } from '../../utils/hunt/huntService.js';
import { HuntStore } from '../../utils/hunt/huntStore.js';
import { HUNT_MESSAGES } from '../../utils/hunt/messages.js';
import { HUNT_SETTINGS } from '../../utils/hunt/settings.js';
import { WorkerService } from '../../utils/hunt/workerService.js';
import { WorkerStore } from '../../utils/hunt/workerStore.js';
import { SanctionStore } from '../../utils/moderation/sanctionStore.js';
import { Sanctions } from '../../utils/moderation/sanctions.js';
import { huntGuide } from './guide.js';
import { history, join, leaderboard, status, tip } from './hunt.js';
import { huntReroll, rerollButtonHandler } from './huntReroll.js';
import { huntPosts } from './posts.js';
import { workerLink, workerList, workerUnlink } from './workers.js';

export const huntCommand = defineCommand({
  ...localized(HUNT_MESSAGES, 'commands.hunt'),
  access: 'everyone',
  category: 'hunt:category',
  subcommands: [join, tip, status, leaderboard, history],
  groups: [
    { ...localized(HUNT_MESSAGES, 'commands.worker'), subcommands: [workerLink, workerList, workerUnlink] },
  ],
});

/** The hunt: tips and their draws, the bonus path, score/draw/time rewards, workers and the HTTP API. */
export const huntFeature: Feature = {
  name: 'hunt',
  personalData: {
    collections: {
      hunt_tips: { what: 'hunt:privacy.hunt_tips' },
      hunt_drawn_tips: { what: 'hunt:privacy.hunt_drawn_tips' },
      hunt_bests: { what: 'hunt:privacy.hunt_bests' },
      hunt_sequences: { what: 'hunt:privacy.hunt_sequences' },
      hunt_windows: { what: 'hunt:privacy.hunt_windows' },
      hunt_time: { what: 'hunt:privacy.hunt_time' },
      place_progress_events: { what: 'hunt:privacy.place_progress_events' },
      place_bonus_events: { what: 'hunt:privacy.place_bonus_events' },
      // A worker and its nonces are the member's alone; its secret would let the holder act as them.
      identity_delegations: {
        what: 'hunt:privacy.identity_delegations',
        forget: 'delete',
        hidden: { secret: 'secret' },
      },
      hunt_worker_nonces: { what: 'hunt:privacy.hunt_worker_nonces', forget: 'delete' },
    },
    // The member's workers stand for them in tips and rewards.
    aliases: async (services, member) => (await services.workers.everOf(member)).map((w) => w._id),
    async inPlay(services, member, workers) {
      const { tips, rewards } = await services.hunt.inPlay(member, workers);
      return { 'hunt.tip': tips, 'hunt.time': rewards };
    },
  },
  commands: [huntCommand],
  notifications: ['drawn'],
  prune: (deps, now) => deps.services.hunt.prune(now),
  adminGroups: [
    {
      ...localized(HUNT_MESSAGES, 'admin.commands.hunt'),
      subcommands: [huntReroll],
      components: [rerollButtonHandler],
    },
  ],
  messages: HUNT_MESSAGES,
  settings: HUNT_SETTINGS,
  async ensureIndexes(db) {
    await Promise.all([HuntStore.ensureIndexes(db), WorkerStore.ensureIndexes(db)]);
  },
  createServices(infra) {
    const workers = new WorkerService({ ...infra, store: new WorkerStore(infra.db) });
    return {
      workers,
      hunt: new HuntService({
        ...infra,
        store: new HuntStore(infra.db),
        economy: infra.placeEconomy,
        // Rewards of a worker go to its owner, resolved at the moment of the reward.
        ownerOf: (identity) => workers.ownerOf(identity),
        sanctions: new Sanctions({ store: new SanctionStore(infra.db), clock: infra.clock }),
      }),
    };
  },
  // Each draw, each round's explanation, the bonus path and a finished round's target (posts.ts).
  tasks: (deps) => deps.services.hunt.tasks(huntPosts(deps)),
  // `/help topic:hunt`: the task, scoring with a worked example, the draw and the rewards.
  guide: {
    category: 'hunt:category',
    explain: async (ctx) => huntGuide(ctx.i18n, await huntFacts(ctx.deps.runtimeConfig)),
  },
  httpRoutes: (deps) => huntRoutes(deps.services),
};
