import { z } from 'zod';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import { defineTask, type Scheduler, type TaskHandler } from './scheduler/scheduler.js';

export const RETENTION_TASK = 'retention.prune';
/** How often what outlived its retention is removed. */
export const RETENTION_EVERY_MS = 3_600_000;

/**
 * Keeps the database from growing with time where it holds state, not the books (docs/operating.md,
 * "What is stored, and for how long"): every hour, on a durable timer, each feature's `prune`
 * removes what outlived its retention. One timer per slot, planned by the one before, so a restart,
 * a second process or a week without the bot runs each hour's prune once.
 */
export function retentionTasks(
  deps: { scheduler: Scheduler; log: Logger },
  prune: (now: Date) => Promise<Record<string, number>>,
): TaskHandler[] {
  return [
    defineTask(RETENTION_TASK, z.object({ slot: z.number().int() }), async ({ slot }) => {
      await planSlot(deps.scheduler, slot + RETENTION_EVERY_MS);
      const removed = await prune(new Date(slot));
      if (Object.values(removed).some((count) => count > 0))
        deps.log.info({ event: 'retention.pruned', ...removed }, 'records past their retention removed');
    }),
  ];
}

/** Plans the prune of the hour under way (a process that runs timers, at its start). */
export async function planRetention(deps: { scheduler: Scheduler; clock: Clock }): Promise<void> {
  await planSlot(
    deps.scheduler,
    Math.floor(deps.clock.now().getTime() / RETENTION_EVERY_MS) * RETENTION_EVERY_MS,
  );
}

async function planSlot(scheduler: Scheduler, slot: number): Promise<void> {
  await scheduler.schedule({
    id: `${RETENTION_TASK}:${slot}`,
    kind: RETENTION_TASK,
    dueAt: new Date(slot),
    payload: { slot },
  });
}
