import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FakeDiscord } from '../support/fakeDiscord.js';
import { type LoggingProcess, startNode } from '../support/nodeProcess.js';

const PORT = 28_000 + (process.pid % 2_000);

/** `npm run start:sharded`: the ShardingManager spawns the bot as shard processes. */
describe('the sharded bot', () => {
  const fake = new FakeDiscord();
  let manager: LoggingProcess;

  beforeAll(async () => {
    await fake.start();
    manager = startNode(['app/shardManager.ts'], {
      DISCORD_TOKEN: 'fake-token',
      DISCORD_API_URL: fake.apiUrl,
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB_NAME: `sharded_${Date.now()}`,
      HTTP_PORT: String(PORT),
    });
    await manager.waitForLog('"event":"discord.ready"');
  });

  afterAll(async () => {
    if (manager.child.exitCode === null) manager.child.kill('SIGKILL');
    await fake.stop();
  });

  it('runs the bot as shard 0, answers commands, and stops every shard on SIGTERM', async () => {
    expect(manager.logs()).toContain('"event":"shard.created","shardId":0');
    expect(manager.logs()).toMatch(/"event":"discord.ready".*"shards":\[0\]/);
    const token = fake.command({ id: '800000000000000077', username: 'sharon' }, 'help', []);
    const [reply] = await fake.waitFor(token);
    expect(reply?.embeds[0]?.title).toBe('What you can do');

    // The web is served once, by the manager (the shards get HTTP_PORT=0).
    await manager.waitForLog('"event":"web.ready"');
    expect(manager.logs().match(/"event":"http.listening"/g)).toHaveLength(1);
    const health = await fetch(`http://127.0.0.1:${PORT}/healthz`).then((r) => r.json());
    expect(health).toEqual({ ok: true, database: 'ok', gateway: 'none' });

    expect(await manager.terminate()).toBe(0);
    expect(manager.logs()).toContain('"event":"shutdown.finished"');
  });
});
