import type { Effect } from './effect.js';
import { useOnce } from './effect.js';
import '../../cookies/protections.js';

/** The next steal against its owner fails before the roll, and the thief pays the fine. */
export const padlock: Effect = {
  name: 'padlock',
  emoji: '🔒',
  acts: 'by_itself',
  install(hooks, units, clock) {
    hooks.add('cookies.steal_guard', {
      // Cookies are one economy across servers: a padlock bought in one guards them in every one.
      stop: (victim, stealId) =>
        useOnce(units, clock, { owner: victim, effect: 'padlock', op: `steal:${stealId}`, guildId: null }),
    });
  },
};
