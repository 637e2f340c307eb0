import type { Effect } from './effect.js';
import { useOnce } from './effect.js';
import '../../cookies/protections.js';

/** One whole missed day keeps the collect streak: the next collect counts on from it. */
export const streakShield: Effect = {
  name: 'streak_shield',
  emoji: '🛡️',
  acts: 'by_itself',
  install(hooks, units, clock) {
    hooks.add('cookies.streak_keeper', {
      // The streak is one across servers, like the Cookies it pays.
      keep: (member, lastAt) =>
        useOnce(units, clock, {
          owner: member,
          effect: 'streak_shield',
          op: `streak:${lastAt.getTime()}`,
          guildId: null,
        }),
    });
  },
};
