import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Db } from 'mongodb';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { schemaOf } from '../db/migrations.js';
import type { Logger } from '../logger.js';
import { metrics } from '../metrics.js';
import { defineTask, type Scheduler, type TaskHandler } from '../scheduler/scheduler.js';
import { backupFileName, pruneBackups, takeBackup } from './backup.js';

export const BACKUP_TASK = 'backup.take';

export interface BackupTimerDeps {
  db: Db;
  scheduler: Scheduler;
  /** The timers' clock: slots, names and the archive's date follow it (the console's includes its `!wait`s). */
  clock: Clock;
  log: Logger;
  backup: Config['backup'] & { dir: string };
  /** Collections the backups leave out (the features' `transient` ones). */
  leaveOut?: readonly string[];
}

/**
 * The bot's own backups (docs/operating.md, "Backups"): one per interval (BACKUP_INTERVAL_HOURS),
 * on a durable timer, so that a restart, a second process or a crash mid-way neither skips nor
 * doubles one. Time is cut in slots of the interval from the epoch; the task of a slot plans
 * the next slot, writes the slot's archive (named for the slot's start; one already there is
 * kept) and keeps the BACKUP_KEEP newest of the bot's own. Planned at start-up for the slot
 * under way, it runs at once when that slot has no archive yet: a bot started every morning
 * gets its daily backup. A slot that ended while the bot was down is not written late (its
 * archive would hold today's state): the task plans the slot under way instead. A backup
 * longer than the scheduler's lease may be claimed again meanwhile; in one process the second
 * run waits for the first, and across processes each writes a file of its own and only the
 * first whole one takes the slot's name.
 */
export function backupTasks(deps: BackupTimerDeps): TaskHandler[] {
  const running = new Map<string, Promise<void>>();
  const once = (slot: string) => {
    const run = running.get(slot) ?? backUpSlot(deps, new Date(slot)).finally(() => running.delete(slot));
    running.set(slot, run);
    return run;
  };
  return [defineTask(BACKUP_TASK, z.object({ slot: z.iso.datetime() }), ({ slot }) => once(slot))];
}

async function backUpSlot(deps: BackupTimerDeps, start: Date): Promise<void> {
  const interval = intervalMs(deps);
  const current = slotOf(deps, deps.clock.now());
  if (start.getTime() + interval <= current.getTime()) {
    // Ended while the bot was down: the slot under way is the one to write.
    await planSlot(deps, current);
    return;
  }
  // The next slot first: a backup that fails for good (a full disk) stops no later one.
  await planSlot(deps, new Date(start.getTime() + interval));
  const file = slotFile(deps, start);
  if (!existsSync(file)) {
    try {
      const taken = await takeBackup(deps.db, file, schemaOf, deps.clock, deps.leaveOut);
      metrics.backups.inc({ outcome: 'taken' });
      metrics.lastBackup.set(Math.floor(Date.now() / 1000));
      deps.log.info(
        { event: 'backup.taken', file, bytes: taken.bytes, ms: taken.ms, pauseMs: taken.pauseMs },
        `backup written: ${file}`,
      );
    } catch (error) {
      metrics.backups.inc({ outcome: 'failed' });
      throw error;
    }
  }
  const removed = await pruneBackups(deps.backup.dir, deps.db.databaseName, deps.backup.keep);
  if (removed.length > 0)
    deps.log.info({ event: 'backup.pruned', removed }, `old backups removed: ${removed.length}`);
}

/** Plans the backup of the slot under way (start-up); its task plans the next ones. */
export function planBackups(deps: BackupTimerDeps): Promise<void> {
  return planSlot(deps, slotOf(deps, deps.clock.now()));
}

function slotOf(deps: BackupTimerDeps, at: Date): Date {
  const interval = intervalMs(deps);
  return new Date(Math.floor(at.getTime() / interval) * interval);
}

async function planSlot(deps: BackupTimerDeps, start: Date): Promise<void> {
  await deps.scheduler.schedule({
    id: `${BACKUP_TASK}:${start.toISOString()}`,
    kind: BACKUP_TASK,
    dueAt: start,
    payload: { slot: start.toISOString() },
  });
}

function intervalMs(deps: BackupTimerDeps): number {
  return deps.backup.intervalHours * 3_600_000;
}

function slotFile(deps: BackupTimerDeps, start: Date): string {
  return path.join(deps.backup.dir, backupFileName(deps.db.databaseName, start, 'auto'));
}
