import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FakeDiscord } from '../support/fakeDiscord.js';

/** `npm run start:sharded`: the ShardingManager spawns the bot as shard processes. */
describe('the sharded bot', () => {
  const fake = new FakeDiscord();
  let manager: ChildProcess;
  let logs = '';

  beforeAll(async () => {
    await fake.start();
    manager = spawn(process.execPath, ['--import', 'tsx', 'src/shardManager.ts'], {
      env: {
        ...process.env,
        DISCORD_TOKEN: 'fake-token',
        DISCORD_API_URL: fake.apiUrl,
        MONGODB_URI: inject('mongoUri'),
        MONGODB_DB_NAME: `sharded_${Date.now()}`,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    manager.stderr?.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    const started = Date.now();
    while (!logs.includes('"event":"discord.ready"')) {
      if (manager.exitCode !== null || Date.now() - started > 60_000)
        throw new Error(`shard did not connect:\n${logs}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  afterAll(async () => {
    if (manager.exitCode === null) manager.kill('SIGKILL');
    await fake.stop();
  });

  it('runs the bot as shard 0, answers commands, and stops every shard on SIGTERM', async () => {
    expect(logs).toContain('"event":"shard.created","shardId":0');
    expect(logs).toMatch(/"event":"discord.ready".*"shards":\[0\]/);
    const token = fake.command({ id: '800000000000000077', username: 'sharon' }, 'help', []);
    const [reply] = await fake.waitFor(token);
    expect(reply?.embeds[0]?.title).toBe('What you can do');

    const exited = new Promise<number | null>((resolve) => manager.once('exit', (code) => resolve(code)));
    manager.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(logs).toContain('"event":"shutdown.finished"');
  });
});
