import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../src/clock.js';
import { createLogger, silentLogger } from '../../src/logger.js';
import { defineTask, Scheduler } from '../../src/scheduler/scheduler.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { useFaultyConnection } from '../support/faultyConnection.js';
import { PROCESS_TEST_TIMEOUT_MS, startNode } from '../support/nodeProcess.js';
import type { SchedulerChildPlan } from '../support/schedulerChild.js';
import { waitFor } from '../support/waitFor.js';

const t = useTestDatabase('scheduler');
const START = new Date('2026-06-01T10:00:00Z');

/** A scheduler whose task `test.record` inserts one run document per execution. */
function scheduler(owner: string, clock: ManualClock, leaseMs = 60_000) {
  const runs = t.db.collection<{ task: string; owner: string; n: number }>('test_runs');
  const s = new Scheduler(
    { tasks: t.cols.dueTasks, clock, log: silentLogger },
    { owner, leaseMs, retryMs: 1_000 },
  );
  s.register([
    defineTask('test.record', z.object({ n: z.number() }), async ({ n }, task) => {
      await runs.insertOne({ task: task.id, owner, n });
    }),
  ]);
  return { s, runs };
}

describe('durable timers', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN two schedulers on one database and 200 due tasks THEN each task runs exactly once', async () => {
    const clock = new ManualClock(START);
    const a = scheduler('a', clock);
    const b = scheduler('b', clock);
    for (let n = 0; n < 200; n++) {
      await a.s.schedule({
        id: `job-${n}`,
        kind: 'test.record',
        dueAt: new Date(START.getTime() + n),
        payload: { n },
      });
    }
    clock.advance(1_000);
    const [ranA, ranB] = await Promise.all([a.s.runDue(), b.s.runDue()]);
    expect(ranA + ranB).toBe(200);
    expect(ranA).toBeGreaterThan(0);
    expect(ranB).toBeGreaterThan(0);
    const runs = await a.runs.find().toArray();
    expect(runs).toHaveLength(200);
    expect(new Set(runs.map((r) => r.task)).size).toBe(200);
    expect(await t.cols.dueTasks.countDocuments({ status: 'done' })).toBe(200);
  });

  it('runs nothing before its time, then in due order', async () => {
    const clock = new ManualClock(START);
    const { s, runs } = scheduler('a', clock);
    await s.schedule({
      id: 'late',
      kind: 'test.record',
      dueAt: new Date(START.getTime() + 120_000),
      payload: { n: 2 },
    });
    await s.schedule({
      id: 'early',
      kind: 'test.record',
      dueAt: new Date(START.getTime() + 60_000),
      payload: { n: 1 },
    });
    expect(await s.runDue()).toBe(0);
    expect(await s.nextDueAt()).toEqual(new Date(START.getTime() + 60_000));
    clock.advance(180_000);
    expect(await s.runDue()).toBe(2);
    expect((await runs.find().toArray()).map((r) => r.n)).toEqual([1, 2]);
  });

  it('GIVEN the same task id scheduled twice THEN it is planned and run once', async () => {
    const clock = new ManualClock(START);
    const { s, runs } = scheduler('a', clock);
    expect(await s.schedule({ id: 'once', kind: 'test.record', dueAt: START, payload: { n: 1 } })).toBe(true);
    expect(await s.schedule({ id: 'once', kind: 'test.record', dueAt: START, payload: { n: 9 } })).toBe(
      false,
    );
    await s.runDue();
    await s.runDue();
    expect((await runs.find().toArray()).map((r) => r.n)).toEqual([1]);
  });

  it('GIVEN a planned task cancelled THEN it never runs; one already claimed by a running process runs anyway', async () => {
    const clock = new ManualClock(START);
    const { s, runs } = scheduler('a', clock);
    await s.schedule({ id: 'dropped', kind: 'test.record', dueAt: START, payload: { n: 1 } });
    expect(await s.cancel('dropped')).toBe(true);
    expect(await s.cancel('dropped')).toBe(false);
    // Claimed by another process, which is running it: the cancel leaves it to finish.
    const other = new Scheduler({ tasks: t.cols.dueTasks, clock, log: silentLogger }, { owner: 'b' });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    other.register([
      defineTask('test.record', z.object({ n: z.number() }), async ({ n }, task) => {
        started = true;
        await gate;
        await runs.insertOne({ task: task.id, owner: 'b', n });
      }),
    ]);
    await s.schedule({ id: 'running', kind: 'test.record', dueAt: START, payload: { n: 2 } });
    const running = other.runDue();
    await waitFor(() => started, { what: 'the other process to start the task' });
    expect(await s.cancel('running')).toBe(false);
    release();
    await running;
    expect((await runs.find().toArray()).map((r) => r.n)).toEqual([2]);
  });

  it('GIVEN a failing handler THEN it is retried later and set aside after the last attempt', async () => {
    const clock = new ManualClock(START);
    const s = new Scheduler(
      { tasks: t.cols.dueTasks, clock, log: silentLogger },
      { owner: 'a', maxAttempts: 2, retryMs: 1_000 },
    );
    let calls = 0;
    s.register([
      defineTask('test.fail', z.object({}), async () => {
        calls += 1;
        throw new Error('channel down');
      }),
    ]);
    await s.schedule({ id: 'f', kind: 'test.fail', dueAt: START, payload: {} });
    expect(await s.runDue()).toBe(1);
    expect(await s.get('f')).toMatchObject({ status: 'due', attempts: 1, lastError: 'Error: channel down' });
    expect(await s.runDue()).toBe(0);
    clock.advance(1_000);
    expect(await s.runDue()).toBe(1);
    expect(await s.get('f')).toMatchObject({ status: 'failed', attempts: 2 });
    expect(calls).toBe(2);
  });

  it('GIVEN ended tasks THEN a done one is kept an hour (its id still runs once) and a failed one a week', async () => {
    const clock = new ManualClock(START);
    const runs = t.db.collection<{ n: number }>('test_runs');
    // Two processes: the second asks for the first one's task again.
    const [s, other] = ['a', 'b'].map((owner) => {
      const scheduler = new Scheduler(
        { tasks: t.cols.dueTasks, clock, log: silentLogger },
        { owner, maxAttempts: 1 },
      );
      scheduler.register([
        defineTask('test.record', z.object({ n: z.number() }), async ({ n }) => {
          await runs.insertOne({ n });
        }),
        defineTask('test.fail', z.object({}), async () => Promise.reject(new Error('channel down'))),
      ]);
      return scheduler;
    }) as [Scheduler, Scheduler];
    await s.schedule({ id: 'done', kind: 'test.record', dueAt: START, payload: { n: 1 } });
    await s.schedule({ id: 'failed', kind: 'test.fail', dueAt: START, payload: {} });
    expect(await s.runDue()).toBe(2);
    expect(await s.get('failed')).toMatchObject({ status: 'failed' });

    clock.advance(59 * 60_000);
    expect(
      await other.schedule({ id: 'done', kind: 'test.record', dueAt: clock.now(), payload: { n: 2 } }),
    ).toBe(false);
    await s.runDue();
    expect(await s.get('done')).toMatchObject({ status: 'done' });

    clock.advance(2 * 60_000);
    await s.runDue();
    expect(await s.get('done')).toBeNull();
    expect(await s.get('failed')).toMatchObject({ status: 'failed' });

    clock.advance(7 * 86_400_000);
    await s.runDue();
    expect(await s.get('failed')).toBeNull();
    expect((await runs.find().toArray()).map((r) => r.n)).toEqual([1]);
  });

  it(
    'GIVEN a process killed while it holds a task THEN the task runs elsewhere once its lease expires',
    async () => {
      const clock = new ManualClock(new Date());
      const { s, runs } = scheduler('survivor', clock);
      await s.schedule({
        id: 'orphan',
        kind: 'test.record',
        dueAt: new Date(Date.now() - 1_000),
        payload: { n: 7 },
      });

      const plan: SchedulerChildPlan = { uri: t.uri, dbName: t.name, leaseMs: 5_000 };
      const child = startNode(
        ['test/support/schedulerChild.ts', JSON.stringify(plan)],
        {},
        { watch: 'stdout' },
      );
      await child.waitForLog('CLAIMED');
      await child.kill('SIGKILL');
      const orphan = await s.get('orphan');
      expect(orphan).toMatchObject({ leaseOwner: 'doomed', status: 'due', leaseUntil: expect.any(Date) });

      // Just before and just after the lease the dead process took (its own clock's claim time +
      // 5 s), however long it took to start and die: the survivor waits for the lease, no longer.
      const leaseUntil = (orphan?.leaseUntil ?? new Date(Number.NaN)).getTime();
      clock.advanceTo(new Date(leaseUntil - 1));
      expect(await s.runDue()).toBe(0);
      clock.advanceTo(new Date(leaseUntil + 1_000));
      expect(await s.runDue()).toBe(1);
      expect(await runs.find().toArray()).toMatchObject([{ task: 'orphan', owner: 'survivor', n: 7 }]);
      expect(await s.get('orphan')).toMatchObject({ status: 'done', attempts: 2 });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe('durable timers when the database goes away mid-pass', () => {
  const net = useFaultyConnection(t);

  it("GIVEN a run in flight WHEN the next claim and the run's own record fail THEN the pass waits for the run, and nothing rejects unobserved", async () => {
    const clock = new ManualClock(START);
    const logs: Record<string, unknown>[] = [];
    const log = createLogger('info', { write: (line: string) => logs.push(JSON.parse(line)) });
    const s = new Scheduler({ tasks: net.faulty.dueTasks, clock, log }, { owner: 'a', concurrency: 2 });
    let started = false;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    s.register([
      defineTask('test.gated', z.object({}), async () => {
        started = true;
        await gate;
      }),
    ]);
    await s.schedule({ id: 'gated', kind: 'test.gated', dueAt: START, payload: {} });
    const unobserved: unknown[] = [];
    const collect = (reason: unknown) => unobserved.push(reason);
    process.on('unhandledRejection', collect);
    try {
      // The first claim goes through; then the database is gone for claims and for records.
      let claims = 0;
      net.proxy.setRule((r) => {
        if (r.collection !== 'due_tasks') return 'pass';
        if (r.command === 'findAndModify') {
          claims += 1;
          return claims === 1 ? 'pass' : 'drop';
        }
        return r.command === 'update' ? 'drop' : 'pass';
      });
      clock.advance(1_000);
      let settled = false;
      const pass = s.runDue().finally(() => {
        settled = true;
      });
      pass.catch(() => undefined);
      await waitFor(() => started && net.proxy.stats.drops >= 1, { what: 'the run, then a failed claim' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      release();
      await expect(pass).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unobserved).toEqual([]);
      expect(logs.some((l) => l.event === 'task.record_failed' && l.taskId === 'gated')).toBe(true);
    } finally {
      process.off('unhandledRejection', collect);
      net.proxy.setRule(() => 'pass');
    }
    // Its record lost, the task runs again once its lease is over, and is then done.
    clock.advance(120_000);
    expect(await s.runDue()).toBe(1);
    expect((await s.get('gated'))?.status).toBe('done');
  });
});
