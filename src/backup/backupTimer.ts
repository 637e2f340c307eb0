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
}

/**
 * The bot's own backups (README, "Backups"): one per interval (BACKUP_INTERVAL_HOURS), on a
 * durable timer, so that a restart, a second process or a crash mid-way neither skips nor
 * doubles one. Time is cut in slots of the interval from the epoch; the task of a slot plans
 * the next slot, writes the slot's archive (named for the slot's start; one already there is
 * kept) and keeps the BACKUP_KEEP newest. Planned at start-up for the slot under way, it runs at once when that slot has
 * no archive yet: a bot started every morning gets its daily backup.
 */
export function backupTasks(deps: BackupTimerDeps): TaskHandler[] {
  return [
    defineTask(BACKUP_TASK, z.object({ slot: z.iso.datetime() }), async ({ slot }) => {
      const start = new Date(slot);
      // The next slot first: a backup that fails for good (a full disk) stops no later one.
      await planSlot(deps, new Date(start.getTime() + intervalMs(deps)));
      const file = slotFile(deps, start);
      if (!existsSync(file)) {
        try {
          const taken = await takeBackup(deps.db, file, schemaOf, deps.clock);
          metrics.backups.inc({ outcome: 'taken' });
          metrics.lastBackup.set(Math.floor(deps.clock.now().getTime() / 1000));
          deps.log.info(
            { event: 'backup.taken', file, bytes: taken.bytes, ms: taken.ms, pauseMs: taken.pauseMs },
            `backup written: ${file}`,
          );
        } catch (error) {
          metrics.backups.inc({ outcome: 'failed' });
          throw error;
        }
      }
      const removed = await pruneBackups(
        deps.backup.dir,
        deps.db.databaseName,
        deps.backup.keep,
        deps.clock.now(),
      );
      if (removed.length > 0)
        deps.log.info({ event: 'backup.pruned', removed }, `old backups removed: ${removed.length}`);
    }),
  ];
}

/** Plans the backup of the slot under way (start-up); its task plans the next ones. */
export function planBackups(deps: BackupTimerDeps): Promise<void> {
  const interval = intervalMs(deps);
  const now = deps.clock.now().getTime();
  return planSlot(deps, new Date(Math.floor(now / interval) * interval));
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
  return path.join(deps.backup.dir, backupFileName(deps.db.databaseName, start));
}
