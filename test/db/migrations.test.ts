import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db, Document } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { appCollections, ensureAppIndexes, runLedgerRecovery } from '../../app/openApp.js';
import { ASSEMBLY } from '../../commands/index.js';
import { MIGRATIONS } from '../../migrations/index.js';
import { loadArchive, takeBackup } from '../../src/backup/backup.js';
import { ManualClock } from '../../src/clock.js';
import {
  MIGRATIONS_COLLECTION,
  type Migration,
  MigrationFailed,
  markRestoring,
  migrate,
  RestoreUnfinished,
  restoreFinished,
  SchemaNewer,
  schemaOf,
  shapeVersions,
} from '../../src/db/migrations.js';
import { createLogger } from '../../src/logger.js';
import { Holds } from '../../utils/money/holds/holds.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import { makeAppDeps, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('migrations');
const dir = mkdtempSync(path.join(tmpdir(), 'cookiebot-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = createLogger('silent');
let databases = 0;

async function freshDb(): Promise<Db> {
  databases += 1;
  const db = t.client.db(`${t.name}_${databases}`);
  await ensureAppIndexes(db);
  return db;
}

const runner = (db: Db, owner = 'test') => ({ db, log, clock: new ManualClock(new Date()), owner });
const step = (n: number, up: Migration['up'], collections = ['things']): Migration => ({
  id: `${String(n).padStart(3, '0')}-step-${n}`,
  summary: `step ${n}`,
  collections,
  up,
});

describe('the migration runner', () => {
  it('GIVEN a restore that stopped half-way THEN start-up refuses the database, naming the fix; a finished restore opens', async () => {
    const db = await freshDb();
    await markRestoring(db, '/srv/b.ndjson.gz', new Date());
    await expect(migrate(runner(db), MIGRATIONS)).rejects.toThrow(RestoreUnfinished);
    await expect(migrate(runner(db), MIGRATIONS)).rejects.toThrow('npm run restore -- FILE --replace');
    // The restore itself migrates what it loaded, then says it is done.
    await migrate(runner(db), MIGRATIONS, { restoring: true });
    await restoreFinished(db);
    await expect(migrate(runner(db), MIGRATIONS)).resolves.toMatchObject({ applied: [] });
  });

  it('GIVEN a fresh database THEN every step is recorded as applied without running, and a second start finds nothing to do', async () => {
    const db = await freshDb();
    const ran: string[] = [];
    const steps = [step(1, async () => void ran.push('1')), step(2, async () => void ran.push('2'))];
    expect(await migrate(runner(db), steps)).toMatchObject({
      applied: [],
      baseline: ['001-step-1', '002-step-2'],
    });
    expect(ran).toEqual([]);
    expect(await migrate(runner(db), steps)).toEqual({ applied: [], baseline: [], waitedFor: [] });
  });

  it('GIVEN a database holding documents THEN the pending steps run once, in order, after the backup hook, and are recorded with the shapes they change', async () => {
    const db = await freshDb();
    await db.collection<{ _id: string }>('things').insertOne({ _id: 'old' });
    const ran: string[] = [];
    const steps = [
      step(1, async () => void ran.push('1')),
      step(2, async () => void ran.push('2'), ['things', 'others']),
    ];
    const report = await migrate(runner(db), steps, {
      beforeFirstStep: async (p) => void ran.push(`backup before ${p[0]?.id}`),
    });
    expect(report.applied).toEqual(['001-step-1', '002-step-2']);
    expect(ran).toEqual(['backup before 001-step-1', '1', '2']);
    expect(shapeVersions(steps)).toEqual({ things: 2, others: 1 });
    const records = await db.collection(MIGRATIONS_COLLECTION).find().toArray();
    expect(schemaOf(records)).toBe('002-step-2');
    // A later version adds a step: only it runs.
    const more = [...steps, step(3, async () => void ran.push('3'))];
    expect((await migrate(runner(db), more)).applied).toEqual(['003-step-3']);
    expect(ran.at(-1)).toBe('3');
  });

  it('GIVEN a step that fails THEN start-up stops with its name, the steps before it stay recorded, and the next start runs it again', async () => {
    const db = await freshDb();
    await db.collection<{ _id: string }>('things').insertOne({ _id: 'old' });
    let broken = true;
    const steps = [
      step(1, async () => {}),
      step(2, async () => {
        if (broken) throw new Error('disk full');
      }),
    ];
    const failed = migrate(runner(db), steps);
    await expect(failed).rejects.toBeInstanceOf(MigrationFailed);
    await expect(migrate(runner(db), steps)).rejects.toThrow(/migration 002-step-2 failed: disk full/);
    expect(schemaOf(await db.collection(MIGRATIONS_COLLECTION).find().toArray())).toBe('001-step-1');
    broken = false;
    expect((await migrate(runner(db), steps)).applied).toEqual(['002-step-2']);
  });

  it('GIVEN a backup that fails before the first step THEN nothing changes and start-up stops', async () => {
    const db = await freshDb();
    await db.collection<{ _id: string }>('things').insertOne({ _id: 'old' });
    let ran = false;
    const steps = [
      step(1, async () => {
        ran = true;
      }),
    ];
    await expect(
      migrate(runner(db), steps, {
        beforeFirstStep: async () => {
          throw new Error('no space for the backup');
        },
      }),
    ).rejects.toThrow(/no space for the backup/);
    expect(ran).toBe(false);
    expect(schemaOf(await db.collection(MIGRATIONS_COLLECTION).find().toArray())).toBeNull();
  });

  it('GIVEN a database upgraded by a newer version THEN an older one refuses to start on it, naming the steps it does not know', async () => {
    const db = await freshDb();
    await db.collection<{ _id: string }>('things').insertOne({ _id: 'old' });
    const newer = [step(1, async () => {}), step(2, async () => {})];
    await migrate(runner(db), newer);
    await expect(migrate(runner(db), newer.slice(0, 1))).rejects.toBeInstanceOf(SchemaNewer);
    await expect(migrate(runner(db), newer.slice(0, 1))).rejects.toThrow(
      /migrations 002-step-2 are not known here/,
    );
  });

  it('GIVEN two processes starting at once THEN one runs each step once and the other waits for it, then starts', async () => {
    const db = await freshDb();
    await db.collection<{ _id: string }>('things').insertOne({ _id: 'old' });
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const steps = [
      step(1, async () => {
        runs += 1;
        await gate;
      }),
    ];
    const first = migrate(runner(db, 'first'), steps);
    // The first holds the lock while its step runs.
    while (runs === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = migrate(runner(db, 'second'), steps);
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(runs).toBe(1);
    expect(a.applied).toEqual(['001-step-1']);
    expect(b.waitedFor).toEqual(['001-step-1']);
  });

  it('GIVEN a process that stopped mid-step (its lock lapsed) THEN the next start takes the lock and runs the step again', async () => {
    const db = await freshDb();
    await db.collection<{ _id: string }>('things').insertOne({ _id: 'old' });
    await db.collection<Document>(MIGRATIONS_COLLECTION).insertOne({
      _id: 'lock' as never,
      owner: 'gone:1',
      until: new Date(Date.now() - 1_000),
      step: '001-step-1',
    });
    let runs = 0;
    const again = step(1, async () => {
      runs += 1;
    });
    expect((await migrate(runner(db), [again])).applied).toEqual(['001-step-1']);
    expect(runs).toBe(1);
  });
});

/** The hunt's collections that name a round at the top level (`revision` before step 005). */
const HUNT_ROUNDS = [
  'hunt_task',
  'hunt_windows',
  'hunt_bests',
  'hunt_tips',
  'hunt_drawn_tips',
  'place_progress_events',
] as const;

/**
 * A database in the shapes before each step, built by the bot itself and then put back into
 * the old shape: settings without their revision, an operation stopped half-way whose markers
 * hold the operation as an object, unlinked workers that kept their secret, hunt rounds stored
 * as `revision`, windows keeping their bonus path as `beaconPath`, poker tables keeping their
 * operations in flight twice (`appliedCookieOperations`) and an empty `pending`, operations
 * naming the vault's minimum `reserve`.
 */
async function databaseBefore(
  stepId: string,
): Promise<{ db: Db; from: string; to: string; tableId: string }> {
  await clearDatabase(t.db);
  const { deps, clock } = makeBotDeps(t, {
    hooks: {
      async step(at, spec) {
        if (at === 'credit.applied' && spec.opId === `stopped-${databases}`) await new Promise(() => {});
      },
    },
  });
  databases += 1;
  const [from, to] = [
    `8730000000000${String(databases).padStart(5, '0')}`,
    `8731000000000${String(databases).padStart(5, '0')}`,
  ];
  await deps.runtimeConfig.set('cookies.give_max', '5000', 'admin');
  await deps.services.cookies.grant({
    opId: `g-${databases}`,
    adminId: 'admin',
    to: from,
    amount: 900,
    reason: '',
  });
  const worker = await deps.services.workers.link(from, 'old');
  await deps.services.workers.unlink(from, worker._id);
  // The hunt: round 1's window drawn, a reroll whose announcement still waits, a tip of round 2.
  const hunt = deps.services.hunt;
  const drawnWindow = (await hunt.tip(from, [5, 5, 5, 5, 5, 5, 5, 5], null)).window;
  clock.advance(drawnWindow.closesAt.getTime() - clock.now().getTime());
  await deps.scheduler.runDue();
  await deps.ledger.flush();
  await hunt.reroll(1);
  await hunt.tip(from, [6, 6, 6, 6, 6, 6, 6, 6], null);
  // Poker: a table `from` sits at, its buy-in absorbed, nothing in flight.
  const tableId = `tab-${databases}`;
  await deps.services.poker.create({ tableId, hostId: from, channelId: null, locale: 'en' });
  await deps.services.poker.join(tableId, from, 200);
  // Stopped for good after both legs: what a process killed mid-transfer leaves.
  void deps.ledger.transfer({
    opId: `stopped-${databases}`,
    currency: 'cookies',
    from,
    to,
    amount: 250,
    kind: 'cookies.give',
    reason: '',
  });
  const file = path.join(dir, `before-${stepId}-${databases}.ndjson.gz`);
  for (;;) {
    const marked = await t.db
      .collection('items_cookies')
      .countDocuments({ 'pendingOps.op': `stopped-${databases}` });
    if (marked === 2) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await takeBackup(t.db, file, schemaOf, clock);
  const db = t.client.db(`${t.name}_old_${databases}`);
  await loadArchive(db, file);
  const index = MIGRATIONS.findIndex((m) => m.id === stepId);
  await db.collection(MIGRATIONS_COLLECTION).deleteMany({});
  const before = MIGRATIONS.slice(0, index).map((m) => ({
    _id: `step:${m.id}`,
    appliedAt: new Date(),
    ms: 0,
    summary: m.summary,
    collections: [...m.collections],
  }));
  if (before.length > 0)
    await db.collection(MIGRATIONS_COLLECTION).insertMany(before as unknown as Document[]);
  if (index <= 0) await db.collection('runtime_config').updateMany({}, { $unset: { revision: '' } });
  if (index <= 7) {
    for (const account of [from, to]) {
      const doc = await db.collection<Document>('items_cookies').findOne({ _id: account as never });
      const markers = ((doc?.pendingOps ?? []) as Document[]).map((m) => ({
        ...m,
        spec: (m.spec as string).replace('"keepAtLeast":', '"reserve":'),
      }));
      await db
        .collection<Document>('items_cookies')
        .updateOne({ _id: account as never }, { $set: { pendingOps: markers } });
    }
  }
  if (index <= 1) {
    for (const account of [from, to]) {
      const doc = await db.collection<Document>('items_cookies').findOne({ _id: account as never });
      const markers = ((doc?.pendingOps ?? []) as Document[]).map((m) => ({
        ...m,
        spec: JSON.parse(m.spec as string),
      }));
      await db
        .collection<Document>('items_cookies')
        .updateOne({ _id: account as never }, { $set: { pendingOps: markers } });
    }
  }
  if (index <= 2) {
    await db
      .collection<Document>('identity_delegations')
      .updateOne({ _id: worker._id as never }, { $set: { secret: 'kept-too-long' } });
  }
  if (index <= 4) {
    for (const name of HUNT_ROUNDS) {
      await db.collection(name).updateMany({}, { $rename: { round: 'revision' } });
    }
    const task = await db.collection<Document>('hunt_task').findOne({});
    const past = ((task?.past ?? []) as Document[]).map(({ round, ...ended }) => ({
      revision: round,
      ...ended,
    }));
    await db.collection<Document>('hunt_task').updateOne({ _id: 'task' as never }, { $set: { past } });
    await db
      .collection('place_bonus_events')
      .updateMany({ tip: { $exists: true } }, { $rename: { 'tip.round': 'tip.revision' } });
    await db
      .collection('due_tasks')
      .updateMany({ kind: 'hunt.rerolled' }, { $rename: { 'payload.round': 'payload.revision' } });
    await db.collection('hunt_bests').createIndex({ revision: 1, best: -1 }, { name: 'leaderboard' });
    await db
      .collection('hunt_tips')
      .createIndex({ revision: 1, window: 1, status: 1 }, { name: 'by_window' });
  }
  if (index <= 5) {
    await db.collection('hunt_windows').updateMany({}, { $rename: { bonusPath: 'beaconPath' } });
  }
  if (index <= 6) {
    await db
      .collection('poker_tables')
      .updateMany({ pending: { $exists: false } }, { $set: { pending: [] } });
    await db
      .collection('poker_tables')
      .createIndex({ appliedCookieOperations: 1 }, { name: 'markers', sparse: true });
  }
  return { db, from, to, tableId };
}

describe('each migration on a database in the shape before it', () => {
  it.each(MIGRATIONS.map((m) => m.id))(
    'GIVEN a database written before %s THEN the upgrade brings every shape up to date and the books are clean',
    async (stepId) => {
      const { db, from, to, tableId } = await databaseBefore(stepId);
      try {
        const report = await migrate(runner(db), MIGRATIONS);
        expect(report.applied).toEqual(
          MIGRATIONS.slice(MIGRATIONS.findIndex((m) => m.id === stepId)).map((m) => m.id),
        );
        expect(await db.collection('runtime_config').countDocuments({ revision: { $exists: false } })).toBe(
          0,
        );
        expect(
          await db.collection('items_cookies').countDocuments({ 'pendingOps.spec': { $type: 'object' } }),
        ).toBe(0);
        const markers = (
          await db
            .collection('items_cookies')
            .find({ 'pendingOps.0': { $exists: true } })
            .toArray()
        )
          .flatMap((account) => account.pendingOps as { spec: string }[])
          .map((marker) => JSON.parse(marker.spec));
        expect(markers.map((spec) => ['reserve' in spec, spec.keepAtLeast])).toEqual([
          [false, 0],
          [false, 0],
        ]);
        expect(
          await db
            .collection('identity_delegations')
            .countDocuments({ unlinkedAt: { $ne: null }, secret: { $exists: true } }),
        ).toBe(0);
        for (const name of HUNT_ROUNDS) {
          expect(await db.collection(name).countDocuments({ revision: { $exists: true } })).toBe(0);
        }
        expect(await db.collection('hunt_task').countDocuments({ 'past.revision': { $exists: true } })).toBe(
          0,
        );
        expect(await db.collection('place_bonus_events').countDocuments({ 'tip.round': 1 })).toBe(1);
        expect(await db.collection('due_tasks').countDocuments({ 'payload.round': 1 })).toBe(1);
        expect(await db.collection('hunt_windows').countDocuments({ beaconPath: { $exists: true } })).toBe(0);
        expect(await db.collection('hunt_windows').countDocuments({ bonusPath: { $exists: false } })).toBe(0);
        expect(
          await db.collection('poker_tables').countDocuments({
            $or: [{ appliedCookieOperations: { $exists: true } }, { pending: { $size: 0 } }],
          }),
        ).toBe(0);
        expect(
          (await db.collection('poker_tables').listIndexes().toArray()).map((i) => i.name),
        ).not.toContain('markers');

        // The bot starting on it: indexes, recovery (the stopped give finishes), the full check.
        await Promise.all([ASSEMBLY.ensureIndexes(db), Holds.ensureIndexes(db)]);
        const app = makeAppDeps({ db, cols: appCollections(db) });
        app.clock.advance(3_600_000);
        const recovery = await runLedgerRecovery(app, 0);
        expect(recovery.rolledForward).toBe(1);
        expect((await checkInvariants(app.cols)).problems).toEqual([]);
        expect(await ASSEMBLY.checkInvariants(db, app.config, app.ledger, app.clock.now())).toEqual([]);
        expect([
          await app.ledger.balanceOf('cookies', from),
          await app.ledger.balanceOf('cookies', to),
        ]).toEqual([450, 250]);

        // The hunt goes on in round 2: its leaderboard's index is on `round`, the reroll is
        // announced, round 2's tip is drawn, and round 2 can be rerolled in turn.
        const leaderboard = (await db.collection('hunt_bests').listIndexes().toArray()).find(
          (i) => i.name === 'leaderboard',
        );
        expect(leaderboard?.key).toEqual({ round: 1, best: -1 });
        const bot = makeBotDeps({ db, cols: appCollections(db) });
        bot.clock.advance(3_600_000);
        await bot.deps.scheduler.runDue();
        expect(await db.collection('due_tasks').countDocuments({ status: 'failed' })).toBe(0);
        expect((await bot.deps.services.hunt.status(from)).round).toBe(2);
        const history = await bot.deps.services.hunt.history(from, 5);
        expect(history.map((tip) => [tip.round, tip.status])).toEqual([
          [2, 'drawn'],
          [1, 'drawn'],
        ]);
        expect((await bot.deps.services.hunt.reroll(2)).rerolled).toBe(true);

        // The poker table went on too: idle for the hour, its timer closed it and cashed `from` out.
        const table = await bot.deps.services.poker.finishMoves(tableId);
        expect([table.status, table.pending, table.chips.out]).toEqual(['closed', [], 200]);
        expect(await bot.deps.ledger.balanceOf('cookies', from)).toBe(650);
      } finally {
        await db.dropDatabase();
      }
    },
  );
});
