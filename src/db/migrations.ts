import type { Db } from 'mongodb';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { isDuplicateKey } from './duplicateKey.js';
import { holdingDocuments } from './holdingDocuments.js';

/**
 * One step of the stored documents' shapes (`migrations/`): numbered, run once per database,
 * in order, at start-up, before any code reads what it changes. A step must be idempotent: a
 * process that stops half-way runs it again from the start, over documents it already
 * changed.
 */
export interface Migration {
  /** `001-…`: its number orders it; the rest names it. Never renamed once released. */
  id: string;
  /** What it changes, in a line (the start-up log). */
  summary: string;
  /** The collections whose documents' shape it changes: each one's shape version goes up by one. */
  collections: readonly string[];
  up(db: Db, log: Logger): Promise<void>;
}

/** Where the steps applied, their lock and nothing else are kept. */
export const MIGRATIONS_COLLECTION = 'schema_migrations';

interface StepRecord {
  _id: string;
  appliedAt: Date;
  ms: number;
  summary: string;
  collections: string[];
}
interface LockRecord {
  _id: 'lock';
  owner: string;
  until: Date;
  step: string | null;
}
interface RestoringRecord {
  _id: typeof RESTORING;
  since: Date;
  file: string;
}
type SchemaDoc = StepRecord | LockRecord | RestoringRecord;

const STEP_PREFIX = 'step:';
const LOCK_LEASE_MS = 60_000;
const POLL_MS = 250;

/** A step failed: start-up stops, and says which. */
export class MigrationFailed extends Error {
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    super(
      `migration ${step} failed: ${cause instanceof Error ? cause.message : String(cause)}. Start-up stopped; the database holds every step before it (docs/operating.md, "Upgrades")`,
      { cause },
    );
    this.name = 'MigrationFailed';
  }
}

/** The record a restore keeps while it loads: a database whose restore did not finish is refused. */
export const RESTORING = 'restoring';

/** The records of this collection that belong to the process writing them, never to a backup of it. */
export const PROCESS_RECORDS: readonly string[] = ['lock', RESTORING];

/** Marks the database as being restored from `file`, before anything of it is dropped. */
export async function markRestoring(db: Db, file: string, since: Date): Promise<void> {
  await db
    .collection<RestoringRecord>(MIGRATIONS_COLLECTION)
    .updateOne({ _id: RESTORING }, { $set: { since, file } }, { upsert: true });
}

/** The restore finished: the database may be opened. */
export async function restoreFinished(db: Db): Promise<void> {
  await db.collection<RestoringRecord>(MIGRATIONS_COLLECTION).deleteOne({ _id: RESTORING });
}

export class RestoreUnfinished extends Error {
  constructor() {
    super(
      'a restore into this database did not finish (docs/operating.md, "Restore"): run npm run restore -- FILE --replace again before starting the bot on it',
    );
    this.name = 'RestoreUnfinished';
  }
}

/** The database was upgraded by a newer version of the bot than this one. */
export class SchemaNewer extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `this database was upgraded by a newer version of the bot (migrations ${unknown.join(', ')} are not known here): run that version, or restore the backup taken before the upgrade (docs/operating.md, "Upgrades")`,
    );
    this.name = 'SchemaNewer';
  }
}

/** The last step applied by the records of `schema_migrations` (a backup's header names it). */
export function schemaOf(records: readonly { _id?: unknown }[]): string | null {
  const steps = records
    .map((r) => String(r._id))
    .filter((id) => id.startsWith(STEP_PREFIX))
    .map((id) => id.slice(STEP_PREFIX.length))
    .sort();
  return steps.at(-1) ?? null;
}

/** Each collection's shape version: how many steps changed it. */
export function shapeVersions(steps: readonly Pick<Migration, 'collections'>[]): Record<string, number> {
  const versions: Record<string, number> = {};
  for (const step of steps) for (const c of step.collections) versions[c] = (versions[c] ?? 0) + 1;
  return versions;
}

export interface MigrationDeps {
  db: Db;
  log: Logger;
  clock: Clock;
  /** Names this process in the lock, so another one knows whom it waits for. */
  owner: string;
}

export interface MigrationOptions {
  /**
   * Runs once before the first pending step of a database that holds documents (start-up takes
   * a backup there): a failure stops the migration before anything changed.
   */
  beforeFirstStep?: (pending: readonly Migration[]) => Promise<void>;
  /** How long a second process waits for the first one's steps before it gives up. */
  waitMs?: number;
  /** The restore itself, which migrates what it loaded while its `restoring` record is there. */
  restoring?: boolean;
}

export interface MigrationReport {
  applied: string[];
  /** The steps a fresh database starts with as applied (it holds nothing to change). */
  baseline: string[];
  /** The steps another process ran while this one waited. */
  waitedFor: string[];
}

/**
 * Brings the database's shapes to `steps` (each applied once, in order, recorded). One process
 * runs them under a lock; one that finds it held waits until the steps are recorded. A fresh
 * database records every step as applied without running it. Refuses a database that holds a
 * step this code does not know.
 */
export async function migrate(
  deps: MigrationDeps,
  steps: readonly Migration[],
  options: MigrationOptions = {},
): Promise<MigrationReport> {
  checkOrder(steps);
  const schema = deps.db.collection<SchemaDoc>(MIGRATIONS_COLLECTION);
  if (!options.restoring && (await schema.findOne({ _id: RESTORING }))) throw new RestoreUnfinished();
  const pending = async () => {
    const applied = new Set((await schema.find({}, { projection: { _id: 1 } }).toArray()).map((r) => r._id));
    const unknown = [...applied]
      .filter((id) => id.startsWith(STEP_PREFIX) && !steps.some((s) => `${STEP_PREFIX}${s.id}` === id))
      .map((id) => id.slice(STEP_PREFIX.length));
    if (unknown.length > 0) throw new SchemaNewer(unknown.sort());
    return steps.filter((s) => !applied.has(`${STEP_PREFIX}${s.id}`));
  };
  const report: MigrationReport = { applied: [], baseline: [], waitedFor: [] };
  const firstLook = await pending();
  if (firstLook.length === 0) return report;

  const deadline = deps.clock.now().getTime() + (options.waitMs ?? 15 * 60_000);
  while (!(await takeLock(deps, null))) {
    const lock = (await schema.findOne({ _id: 'lock' })) as LockRecord | null;
    if ((await pending()).length === 0) {
      report.waitedFor = firstLook.map((s) => s.id);
      return report;
    }
    if (deps.clock.now().getTime() > deadline) {
      throw new Error(
        `waited ${Math.round((options.waitMs ?? 15 * 60_000) / 1000)} s for migration ${lock?.step ?? '(none yet)'}, run by ${lock?.owner ?? 'another process'}; it did not finish`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    const todo = await pending();
    if (todo.length === 0) {
      report.waitedFor = firstLook.map((s) => s.id);
      return report;
    }
    const fresh = (await holdingDocuments(deps.db, [MIGRATIONS_COLLECTION])).length === 0;
    if (fresh) {
      await schema.insertMany(todo.map((step) => stepRecord(step, deps.clock.now(), 0)));
      report.baseline = todo.map((s) => s.id);
      return report;
    }
    // The lock is kept from here on (the backup before the steps takes minutes on a large
    // database): a lapsed lease would let a second process run the steps at once.
    let lost = false;
    const renewing = setInterval(() => {
      takeLock(deps, null, true).then(
        (held) => {
          if (!held) lost = true;
        },
        () => undefined,
      );
    }, LOCK_LEASE_MS / 5);
    try {
      await options.beforeFirstStep?.(todo);
      return await runSteps(deps, todo, report, () => lost);
    } finally {
      clearInterval(renewing);
    }
  } finally {
    await schema.deleteOne({ _id: 'lock', owner: deps.owner } as never);
  }
}

async function runSteps(
  deps: MigrationDeps,
  todo: readonly Migration[],
  report: MigrationReport,
  lost: () => boolean,
) {
  const schema = deps.db.collection<SchemaDoc>(MIGRATIONS_COLLECTION);
  for (const step of todo) {
    if (lost() || !(await takeLock(deps, step.id))) {
      throw new Error(`migration ${step.id}: this process lost the migrations' lock; start again`);
    }
    const started = performance.now();
    deps.log.info({ event: 'db.migration.started', step: step.id }, `migration ${step.id}: ${step.summary}`);
    try {
      await step.up(deps.db, deps.log);
    } catch (error) {
      deps.log.error(
        { event: 'db.migration.failed', step: step.id, err: error },
        `migration ${step.id} failed`,
      );
      throw new MigrationFailed(step.id, error);
    }
    const ms = Math.round(performance.now() - started);
    const { _id, ...record } = stepRecord(step, deps.clock.now(), ms);
    await schema.updateOne({ _id }, { $setOnInsert: record }, { upsert: true });
    deps.log.info({ event: 'db.migration.applied', step: step.id, ms }, `migration ${step.id} applied`);
    report.applied.push(step.id);
  }
  return report;
}

function stepRecord(step: Migration, at: Date, ms: number): StepRecord {
  return {
    _id: `${STEP_PREFIX}${step.id}`,
    appliedAt: at,
    ms,
    summary: step.summary,
    collections: [...step.collections],
  };
}

function checkOrder(steps: readonly Migration[]): void {
  steps.forEach((step, i) => {
    const number = Number(/^(\d{3})-[a-z0-9-]+$/.exec(step.id)?.[1]);
    if (number !== i + 1)
      throw new Error(`migration ${step.id} must be numbered ${String(i + 1).padStart(3, '0')}-…`);
  });
}

/**
 * Claims (or renews) the lock: a free or lapsed lock is taken by one upsert; a held one makes
 * the upsert's insert fail on the key. A process that stopped mid-step leaves a lock that
 * lapses after the lease; its step is run again (steps are idempotent).
 */
async function takeLock(deps: MigrationDeps, step: string | null, keepStep = false): Promise<boolean> {
  const now = deps.clock.now();
  const until = new Date(now.getTime() + LOCK_LEASE_MS);
  try {
    await deps.db
      .collection<LockRecord>(MIGRATIONS_COLLECTION)
      .updateOne(
        { _id: 'lock', $or: [{ owner: deps.owner }, { until: { $lt: now } }] },
        { $set: keepStep ? { owner: deps.owner, until } : { owner: deps.owner, until, step } },
        { upsert: true },
      );
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}
