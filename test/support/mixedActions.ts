import type { BotDeps } from '../../src/interactions/types.js';

/**
 * One member action of a mixed workload (collect, give, steal, heist join, coinflip, dice,
 * slots, blackjack), the kinds taking turns by `i` so that every stretch mixes all of them.
 * `member(i)` picks the members; the caller settles what the actions leave open.
 */
export async function mixedAction(
  deps: BotDeps,
  member: (i: number) => string,
  phase: number,
  i: number,
  heistId: string,
): Promise<string> {
  const id = `p${phase}-op${i}`;
  const me = member(i * 7 + phase);
  const other = member(i * 11 + phase + 1);
  switch (i % 8) {
    case 0:
      await deps.services.collect.collect(me, i % 16 === 0 ? 'bakery' : 'command');
      return 'collect';
    case 1: {
      if (me === other) return 'skipped';
      await deps.services.cookies.openGive({ promptId: id, from: me, to: other, amount: 1 + (i % 40) });
      await deps.services.cookies.confirmGive(id, me);
      return 'give';
    }
    case 2:
      if (me === other) return 'skipped';
      await deps.services.steal.steal({ opId: id, thief: me, victim: other });
      return 'steal';
    case 3:
      await deps.services.vault.joinHeist(heistId, me);
      return 'heist join';
    case 4:
      await deps.services.games.playInstant('coinflip', {
        roundId: id,
        userId: me,
        bet: 10 + (i % 50),
        params: { side: i % 3 ? 'heads' : 'tails' },
      });
      return 'round';
    case 5:
      await deps.services.games.playInstant('dice', {
        roundId: id,
        userId: me,
        bet: 10 + (i % 30),
        params: { target: 5 + (i % 91) },
      });
      return 'round';
    case 6:
      await deps.services.games.playInstant('slots', { roundId: id, userId: me, bet: 10 + (i % 20) });
      return 'round';
    default: {
      const hand = await deps.services.games.startBlackjack({ roundId: id, userId: me, bet: 10 + (i % 25) });
      if (hand.status === 'playing')
        await deps.services.games.blackjack(id, me, i % 2 ? 'hit' : 'stand', hand.step);
      return 'round';
    }
  }
}
