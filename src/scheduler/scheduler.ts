import type { Collection, Filter } from 'mongodb';
import type { z } from 'zod';
import type { Clock, SteerableClock } from '../clock.js';
import type { DueTaskDoc } from '../db/collections.js';
import { isDatabaseUnavailable } from '../db/databaseHealth.js';
import { isAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { metrics } from '../metrics.js';
import { type Periodic, startPeriodic } from '../periodic.js';

/** What a handler learns about the run it is asked for. */
export interface TaskRun {
  id: string;
  dueAt: Date;
  /** 1 on the first run; more when an earlier run failed or its process died. */
  attempt: number;
}

/**
 * The code behind one kind of task. It must be idempotent: a run whose process dies after
 * the work but before the task is marked done runs again, so money it moves carries an
 * operation id derived from the task (e.g. `heist.payout:<task id>`).
 */
export interface TaskHandler {
  kind: string;
  run(payload: unknown, task: TaskRun): Promise<void>;
}

/** How often a task planned before what it finishes was stored runs again before it lets go. */
const NOT_STORED_TRIES = 4;

/**
 * For a task planned before what it finishes is stored (the usual order: the timer first, so
 * a crash never leaves the state without one): whether to go on. A run that finds nothing yet
 * throws, and the scheduler's back-off brings it back; after a few tries the state never came
 * (its process died first) and the task lets go (false).
 */
export function storedYet(task: TaskRun, stored: boolean, what: string): boolean {
  if (stored) return true;
  if (task.attempt < NOT_STORED_TRIES) throw new Error(`${what} is not stored yet`);
  return false;
}

export function defineTask<S extends z.ZodType>(
  kind: string,
  payload: S,
  run: (payload: z.output<S>, task: TaskRun) => Promise<void>,
): TaskHandler {
  return { kind, run: (raw, task) => run(payload.parse(raw), task) };
}

export interface SchedulerOptions {
  /** Identifies this process on the leases it holds. */
  owner: string;
  /** How long a claim holds; a run longer than this may start again elsewhere. */
  leaseMs: number;
  /** Attempts before a failing task is set aside as `failed` (logged). */
  maxAttempts: number;
  /** Wait before the next attempt, times the attempt number. */
  retryMs: number;
  /**
   * Done tasks are deleted this long after they ended. While a done task is kept, scheduling
   * its id again changes nothing; every id in the code is scheduled within moments of its
   * cause (a window, a round, a prompt), so an hour is ample. Kept longer, they only take room.
   */
  doneRetentionMs: number;
  /** Failed tasks are kept this long, for the operator to read their last error. */
  failedRetentionMs: number;
  /** Old tasks are deleted at most this often (by the clock), not after every pass. */
  pruneEveryMs: number;
  /**
   * How many due tasks one process runs at once (SCHEDULER_CONCURRENCY). Handlers already run
   * side by side in different processes, so they are safe side by side in one. At 1 (the
   * default) tasks run one at a time in due order; above, they are claimed in due order.
   */
  concurrency: number;
}

/** A run the database's absence stopped is tried again this soon. */
const DATABASE_RETRY_MS = 5_000;

/** How many planned ids a process remembers (the oldest are forgotten first). */
const PLANNED_REMEMBERED = 10_000;

export const DEFAULT_SCHEDULER_OPTIONS: Omit<SchedulerOptions, 'owner'> = {
  leaseMs: 60_000,
  maxAttempts: 5,
  retryMs: 30_000,
  doneRetentionMs: 3_600_000,
  failedRetentionMs: 7 * 86_400_000,
  pruneEveryMs: 60_000,
  concurrency: 1,
};

/**
 * Durable timers: jobs in `due_tasks` with a due time, a kind, a payload and a lease. Any
 * process may run due jobs; a guarded claim (one atomic findOneAndUpdate per task) makes
 * exactly one run each; a job whose process died is claimed again once its lease expires.
 * Nothing that matters rides on `setTimeout`: the timer only decides when to look.
 */
export class Scheduler {
  readonly #handlers = new Map<string, TaskHandler>();
  /** Ids this process planned, newest last: scheduling one again needs no round trip. */
  readonly #planned = new Set<string>();
  readonly #options: SchedulerOptions;
  #loop: Periodic | null = null;

  constructor(
    private readonly deps: { tasks: Collection<DueTaskDoc>; clock: Clock; log: Logger },
    options: Partial<SchedulerOptions> & { owner: string },
  ) {
    this.#options = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
  }

  register(handlers: readonly TaskHandler[]): void {
    for (const handler of handlers) {
      if (this.#handlers.has(handler.kind)) throw new Error(`task kind ${handler.kind} registered twice`);
      this.#handlers.set(handler.kind, handler);
    }
  }

  /**
   * Plans a task. The id makes it idempotent: scheduling the same id again (a retried
   * command, a second shard) changes nothing and returns false.
   */
  async schedule(task: { id: string; kind: string; dueAt: Date; payload: unknown }): Promise<boolean> {
    if (!this.#handlers.has(task.kind)) throw new Error(`no handler for task kind ${task.kind}`);
    // Planned by this process already (a window's timers are asked for with every tip): no write.
    if (this.#planned.has(task.id)) return false;
    const result = await this.deps.tasks.updateOne(
      { _id: task.id },
      {
        $setOnInsert: {
          kind: task.kind,
          payload: task.payload,
          dueAt: task.dueAt,
          status: 'due',
          attempts: 0,
          leaseOwner: null,
          leaseUntil: null,
          createdAt: this.deps.clock.now(),
          endedAt: null,
          lastError: null,
        },
      },
      { upsert: true },
    );
    const created = result.upsertedCount === 1;
    this.#planned.add(task.id);
    if (this.#planned.size > PLANNED_REMEMBERED) {
      this.#planned.delete(this.#planned.values().next().value as string);
    }
    // A task due now runs at once in a live process instead of at the next poll.
    if (created && this.#loop && task.dueAt <= this.deps.clock.now()) this.#kick();
    return created;
  }

  /**
   * Drops a planned task that is no longer needed (a hold that ended before its timer): only
   * while it is due and nobody holds its lease; one already running finishes as planned. The
   * task's handler must still be harmless when it runs anyway (it is, by the contract above).
   */
  async cancel(id: string): Promise<boolean> {
    const result = await this.deps.tasks.deleteOne({ _id: id, status: 'due', leaseOwner: null });
    return result.deletedCount === 1;
  }

  async get(id: string): Promise<DueTaskDoc | null> {
    return this.deps.tasks.findOne({ _id: id });
  }

  /** The earliest due time of a task still to run (for the console's `!wait`). */
  async nextDueAt(): Promise<Date | null> {
    const next = await this.deps.tasks.findOne(
      { status: 'due' },
      { sort: { dueAt: 1 }, projection: { dueAt: 1 } },
    );
    return next?.dueAt ?? null;
  }

  /**
   * Runs every task due now, claimed one by one in due order, up to `concurrency` running at
   * once; returns how many ran. A run never rejects (`#execute`); a claim that fails (the
   * database gone) ends the pass only once every run it started has finished, so nothing this
   * pass began is left running unobserved.
   */
  async runDue(): Promise<number> {
    let ran = 0;
    const running = new Set<Promise<void>>();
    try {
      for (let task = await this.#claim(); task; task = await this.#claim()) {
        const run = this.#execute(task).finally(() => running.delete(run));
        running.add(run);
        ran += 1;
        if (running.size >= this.#options.concurrency) await Promise.race(running);
      }
    } finally {
      await Promise.allSettled(running);
    }
    await this.#prune();
    return ran;
  }

  /** Looks for due tasks every `pollMs` until `stop`. */
  start(pollMs: number): void {
    this.#loop ??= startPeriodic('scheduler', () => this.runDue(), {
      intervalMs: pollMs,
      log: this.deps.log,
    });
  }

  async stop(): Promise<void> {
    await this.#loop?.stop();
    this.#loop = null;
    await this.#kicked;
  }

  #kicked: Promise<void> | null = null;

  #kick(): void {
    this.#kicked ??= Promise.resolve()
      .then(() => this.runDue())
      .then(
        () => undefined,
        (error: unknown) =>
          this.deps.log.error({ event: 'scheduler.pass_failed', err: error }, 'scheduler pass failed'),
      )
      .finally(() => {
        this.#kicked = null;
      });
  }

  async #claim(): Promise<DueTaskDoc | null> {
    const now = this.deps.clock.now();
    const claimable: Filter<DueTaskDoc> = {
      status: 'due',
      dueAt: { $lte: now },
      $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }],
    };
    return this.deps.tasks.findOneAndUpdate(
      claimable,
      {
        $set: {
          leaseOwner: this.#options.owner,
          leaseUntil: new Date(now.getTime() + this.#options.leaseMs),
        },
        $inc: { attempts: 1 },
      },
      { sort: { dueAt: 1, _id: 1 }, returnDocument: 'after' },
    );
  }

  /**
   * Runs one claimed task and records how it went. Never rejects: a record that cannot be
   * written (the database gone) is logged, and the task, its lease run out, runs again (its
   * handler is idempotent).
   */
  async #execute(task: DueTaskDoc): Promise<void> {
    try {
      await this.#runAndRecord(task);
    } catch (error) {
      this.deps.log.error(
        { event: 'task.record_failed', taskId: task._id, kind: task.kind, err: error },
        'could not record how a task went; it runs again once its lease ends',
      );
    }
  }

  async #runAndRecord(task: DueTaskDoc): Promise<void> {
    // Only the holder of this very claim may settle it: a run that outlived its lease and was
    // claimed again elsewhere must not mark the newer run's task.
    const mine = { _id: task._id, leaseOwner: this.#options.owner, attempts: task.attempts };
    const handler = this.#handlers.get(task.kind);
    try {
      if (!handler) throw new Error(`no handler for task kind ${task.kind}`);
      await handler.run(task.payload, { id: task._id, dueAt: task.dueAt, attempt: task.attempts });
    } catch (error) {
      await this.#recordFailure(task, mine, error);
      return;
    }
    await this.deps.tasks.updateOne(mine, {
      $set: { status: 'done', endedAt: this.deps.clock.now(), leaseOwner: null, leaseUntil: null },
    });
    metrics.schedulerJobs.inc({ kind: task.kind, outcome: 'done' });
    this.deps.log.info(
      { event: 'task.done', taskId: task._id, kind: task.kind, attempt: task.attempts },
      'task done',
    );
  }

  /**
   * A run that failed: tried again later, or set aside after the last attempt. A run the
   * database's absence failed is no failure of the task: it gets its attempt back and is tried
   * again soon, so an outage never sets a task aside.
   */
  async #recordFailure(task: DueTaskDoc, mine: Filter<DueTaskDoc>, error: unknown): Promise<void> {
    const now = this.deps.clock.now();
    // The driver's own word for it, or the ledger's: it gave up waiting and moved nothing.
    if (isDatabaseUnavailable(error) || isAppError(error, 'LEDGER_UNAVAILABLE')) {
      await this.deps.tasks.updateOne(mine, {
        $set: { dueAt: new Date(now.getTime() + DATABASE_RETRY_MS), leaseOwner: null, leaseUntil: null },
        $inc: { attempts: -1 },
      });
      metrics.schedulerJobs.inc({ kind: task.kind, outcome: 'retry' });
      this.deps.log.warn(
        { event: 'task.database_unavailable', taskId: task._id, kind: task.kind, err: error },
        'task stopped by the database going away; it runs again soon',
      );
      return;
    }
    const failed = task.attempts >= this.#options.maxAttempts;
    await this.deps.tasks.updateOne(mine, {
      $set: failed
        ? { status: 'failed', endedAt: now, leaseOwner: null, leaseUntil: null, lastError: String(error) }
        : {
            dueAt: new Date(now.getTime() + this.#options.retryMs * task.attempts),
            leaseOwner: null,
            leaseUntil: null,
            lastError: String(error),
          },
    });
    metrics.schedulerJobs.inc({ kind: task.kind, outcome: failed ? 'failed' : 'retry' });
    this.deps.log[failed ? 'error' : 'warn'](
      {
        event: failed ? 'task.failed' : 'task.retry',
        taskId: task._id,
        kind: task.kind,
        attempt: task.attempts,
        err: error,
      },
      failed ? 'task failed for good; set aside' : 'task failed; will retry',
    );
  }

  #prunedAt = Number.NEGATIVE_INFINITY;

  async #prune(): Promise<void> {
    const now = this.deps.clock.now().getTime();
    if (now - this.#prunedAt < this.#options.pruneEveryMs) return;
    this.#prunedAt = now;
    const { doneRetentionMs, failedRetentionMs } = this.#options;
    // One delete per status, each with its own retention, each served by the `ended_first` index.
    await this.deps.tasks.deleteMany({ status: 'done', endedAt: { $lt: new Date(now - doneRetentionMs) } });
    await this.deps.tasks.deleteMany({
      status: 'failed',
      endedAt: { $lt: new Date(now - failedRetentionMs) },
    });
  }
}

/**
 * Moves a simulated clock to `at`, stopping at each task's due time to run it, so tasks run in
 * order and each sees the time it was planned for (the console's `!wait`, the economy
 * simulation). Returns how many ran, and the next due time it saw (past `at`, or null).
 */
export async function advanceRunningTasks(
  scheduler: Scheduler,
  clock: SteerableClock,
  at: Date,
): Promise<{ ran: number; nextDueAt: Date | null }> {
  let ran = 0;
  let next: Date | null;
  for (;;) {
    next = await scheduler.nextDueAt();
    if (!next || next > at) break;
    clock.advanceTo(next);
    const now = await scheduler.runDue();
    if (now === 0) break;
    ran += now;
  }
  clock.advanceTo(at);
  return { ran, nextDueAt: next };
}
