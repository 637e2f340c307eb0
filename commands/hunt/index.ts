import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { huntRoutes } from '../../utils/hunt/httpRoutes.js';
import { HuntService } from '../../utils/hunt/huntService.js';
import { HuntStore } from '../../utils/hunt/huntStore.js';
import { HUNT_MESSAGES } from '../../utils/hunt/messages.js';
import { formatScore } from '../../utils/hunt/scoring.js';
import { HUNT_SETTINGS } from '../../utils/hunt/settings.js';
import { WorkerService } from '../../utils/hunt/workerService.js';
import { WorkerStore } from '../../utils/hunt/workerStore.js';
import { PlaceEconomy } from '../../utils/placeEconomy.js';
import { history, join, leaderboard, status, tip } from './hunt.js';
import { huntReroll, rerollButtonHandler } from './huntReroll.js';
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

/** The hunt: tips and their lottery, Beacon-Hunt, score/draw/time rewards, workers and the HTTP API. */
export const huntFeature: Feature = {
  name: 'hunt',
  commands: [huntCommand],
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
        economy: new PlaceEconomy(infra.ledger),
        // Rewards of a worker go to its owner, resolved at the moment of the reward.
        ownerOf: (identity) => workers.ownerOf(identity),
      }),
    };
  },
  // To `hunt_channel`, in the server's language: each window's draw (scores of the drawn tips,
  // who improved), Beacon-Hunt's boosted path as a window opens, and a reroll's old target.
  tasks: (deps) => {
    const post = (content: string) => deps.poster.post('hunt_channel', { content });
    const i18n = deps.i18n.for('en');
    return deps.services.hunt.tasks({
      async drawn(window, drawn) {
        const lines = drawn.map((d) =>
          i18n.t(d.improvedFrom === null ? 'hunt:post.drawn' : 'hunt:post.improved', {
            who: d.tip.identity,
            sequence: d.tip.sequence,
            score: formatScore(d.score),
          }),
        );
        await post(
          [i18n.t('hunt:post.title', { revision: window.revision, count: drawn.length }), ...lines].join(
            '\n',
          ),
        );
      },
      async opened(window) {
        if (window.beaconPath === null) return;
        await post(
          i18n.t('hunt:post.opened', {
            path: window.beaconPath,
            weight: await deps.runtimeConfig.get('beacon_bonus_weight'),
            atSeconds: Math.floor(window.closesAt.getTime() / 1000),
          }),
        );
      },
      async rerolled({ revision, target, best }) {
        await post(
          [
            i18n.t('hunt:post.rerolled', { revision, next: revision + 1, target: target.join(', ') }),
            best
              ? i18n.t('hunt:post.rerolledBest', {
                  revision,
                  who: best.identity,
                  score: formatScore(best.best),
                })
              : '',
          ]
            .filter(Boolean)
            .join('\n'),
        );
      },
    });
  },
  httpRoutes: (deps) => huntRoutes(deps.services),
};
