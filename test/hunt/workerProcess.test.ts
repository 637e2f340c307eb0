import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FakeDiscord } from '../support/fakeDiscord.js';
import { type LoggingProcess, runNode, startNode } from '../support/nodeProcess.js';
import { waitFor } from '../support/waitFor.js';

const OWNER = '897000000000000001';
const WORKER = { _id: 'w-process-test', secret: 'process-test-secret-0123456789' };

/**
 * A real `npm run worker` process hunting against a real bot process over HTTP, for a few
 * 5-second windows (`hunt_window_s`, set before the bot starts): the owner's wallet grows by
 * exactly the rewards the audit records.
 */
describe('a worker process against the bot process', () => {
  const fake = new FakeDiscord();
  const dbName = `worker_process_${Date.now()}`;
  const client = new MongoClient(inject('mongoUri'));
  let bot: LoggingProcess;
  let url = '';

  beforeAll(async () => {
    await fake.start();
    await client.connect();
    const db = client.db(dbName);
    const at = new Date();
    await db.collection('runtime_config').insertMany([
      { _id: 'hunt_window_s', value: 5, updatedBy: 'test', updatedAt: at, revision: 1 },
      { _id: 'hunt_draws_per_window', value: 5, updatedBy: 'test', updatedAt: at, revision: 1 },
    ] as never);
    await db
      .collection('identity_delegations')
      .insertOne({ ...WORKER, ownerId: OWNER, label: 'cli', createdAt: at, unlinkedAt: null } as never);
    bot = startNode(['app/main.ts'], {
      DISCORD_TOKEN: 'fake-token',
      DISCORD_API_URL: fake.apiUrl,
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB_NAME: dbName,
      LOG_LEVEL: 'info',
      HTTP_PORT: String(20_000 + (process.pid % 2_000)),
      SCHEDULER_POLL_MS: '100',
    });
    await bot.waitForLog('"event":"http.listening"');
    url = /"address":"([^"]+)"/.exec(bot.logs())?.[1] ?? '';
  }, 60_000);

  afterAll(async () => {
    if (bot?.child.exitCode === null) await bot.terminate();
    await client.db(dbName).dropDatabase();
    await client.close();
    await fake.stop();
  });

  it('GIVEN three windows of tips by the worker THEN the owner is paid exactly the audited rewards', async () => {
    const { code, stdout } = await runNode([
      'app/worker.ts',
      '--url',
      url,
      '--id',
      WORKER._id,
      '--secret',
      WORKER.secret,
      '--tips',
      '3',
      '--poll-ms',
      '300',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('worker: 3 tips sent');
    // The last window closes 5 s after its tip; its draw is paid by the bot's timer. Wait for
    // it (a loaded machine takes longer than an idle one, and a timer that fails there, say a
    // ledger request past its 5 s under load, is tried again after 30 s, then 60 s: the
    // deadline covers two such retries), then check the books.
    const db = client.db(dbName);
    const draws = () => db.collection('place_bonus_events').countDocuments({ owner: OWNER, kind: 'draw' });
    await waitFor(async () => (await draws()) >= 3, {
      timeoutMs: 170_000,
      intervalMs: 250,
      what: "the last window's draw",
    }).catch((error: unknown) => {
      // Say what the bot did meanwhile: its timers' and the hunt's log lines.
      const lines = bot
        .logs()
        .split('\n')
        .filter((line) => /task\.|hunt\.|ledger\./.test(line));
      throw new Error(`${String(error)}\nthe bot's timer and hunt log:\n${lines.slice(-40).join('\n')}`);
    });
    const wallet = await db.collection('place_wallets').findOne({ _id: OWNER as never });
    const bonus = await db.collection('place_bonus_events').find({ owner: OWNER }).toArray();
    const progress = await db.collection('place_progress_events').find({ owner: OWNER }).toArray();
    const audited = [...bonus, ...progress].reduce((sum, e) => sum + Number(e.milli), 0);
    expect(bonus.filter((e) => e.kind === 'draw')).toHaveLength(3);
    expect(bonus.every((e) => e.source === WORKER._id)).toBe(true);
    expect(wallet?.balance).toBe(audited);
    expect(audited).toBeGreaterThanOrEqual(3 * 25_000);
  }, 300_000);
});
