/**
 * Child process of the scheduler tests: claims the one due task with a handler that never
 * finishes, prints CLAIMED, and waits to be killed while it holds the lease.
 * Input (JSON in argv[2]): SchedulerChildPlan.
 */
import { z } from 'zod';
import { systemClock } from '../../src/clock.js';
import { silentLogger } from '../../src/logger.js';
import { defineTask, Scheduler } from '../../src/scheduler/scheduler.js';
import { type ChildDatabase, openChild } from './nodeProcess.js';

export interface SchedulerChildPlan extends ChildDatabase {
  leaseMs: number;
}

const { plan, cols } = await openChild<SchedulerChildPlan>();
const scheduler = new Scheduler(
  { tasks: cols.dueTasks, clock: systemClock, log: silentLogger },
  { owner: 'doomed', leaseMs: plan.leaseMs },
);
scheduler.register([
  defineTask('test.record', z.object({ n: z.number() }), async () => {
    process.stdout.write('CLAIMED\n');
    await new Promise(() => {});
  }),
]);
await scheduler.runDue();
