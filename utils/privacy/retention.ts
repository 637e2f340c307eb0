import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import type { FeatureServices } from '../../src/features/services.js';
import type { Logger } from '../../src/logger.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';

export const PRUNE_TASK = 'privacy.prune';
/** How often what has expired is removed: records with network addresses live minutes, not days. */
export const PRUNE_EVERY_MS = 10 * 60_000;

export interface RetentionDeps {
  scheduler: Scheduler;
  clock: Clock;
  log: Logger;
}

/**
 * Keeps records no longer than needed (docs/operating.md, "Privacy"): every ten minutes, on a
 * durable timer, the expired sign-in links, web sessions and rate-limit windows (the only
 * records with network addresses) and the workers' spent nonces are removed. MongoDB's TTL
 * indexes remove the first three as well, whenever its TTL monitor runs.
 */
export class Retention {
  constructor(private readonly deps: RetentionDeps) {}

  /** Plans the prune of the slot under way (a process that runs timers, at its start). */
  async plan(): Promise<void> {
    const slot = Math.floor(this.deps.clock.now().getTime() / PRUNE_EVERY_MS) * PRUNE_EVERY_MS;
    await this.#schedule(slot);
  }

  async #schedule(slot: number): Promise<void> {
    await this.deps.scheduler.schedule({
      id: `${PRUNE_TASK}:${slot}`,
      kind: PRUNE_TASK,
      dueAt: new Date(slot),
      payload: { slot },
    });
  }

  tasks(services: Pick<FeatureServices, 'web' | 'workers'>): TaskHandler[] {
    return [
      defineTask(PRUNE_TASK, z.object({ slot: z.number().int() }), async ({ slot }) => {
        await this.#schedule(slot + PRUNE_EVERY_MS);
        const [web, nonces] = await Promise.all([
          services.web.pruneExpired(),
          services.workers.pruneNonces(),
        ]);
        const removed = web.links + web.sessions + web.rates + nonces;
        if (removed > 0)
          this.deps.log.info({ event: 'privacy.pruned', ...web, nonces }, 'expired records removed');
      }),
    ];
  }
}
