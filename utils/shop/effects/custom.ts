import type { Effect } from './effect.js';

/** A server's own item (a ticket, a badge, a raffle entry): kept, gifted, traded, used for the server's events. */
export const custom: Effect = {
  name: 'custom',
  emoji: '🎟️',
  acts: 'on_use',
};
