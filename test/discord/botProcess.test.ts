import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FakeDiscord } from '../support/fakeDiscord.js';

/** `npm start` with a token, as an operator runs it: a real process, stopped with SIGTERM. */
describe('the bot process', () => {
  const fake = new FakeDiscord();
  let child: ChildProcess;
  let logs = '';

  beforeAll(async () => {
    await fake.start();
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        ...process.env,
        DISCORD_TOKEN: 'fake-token',
        DISCORD_API_URL: fake.apiUrl,
        MONGODB_URI: inject('mongoUri'),
        MONGODB_DB_NAME: `bot_process_${Date.now()}`,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    const started = Date.now();
    while (!logs.includes('"event":"discord.ready"')) {
      if (child.exitCode !== null || Date.now() - started > 60_000)
        throw new Error(`bot did not connect:\n${logs}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await fake.stop();
  });

  it('answers a slash command, then shuts down cleanly on SIGTERM', async () => {
    const token = fake.command({ id: '800000000000000042', username: 'operator' }, 'cookies', ['balance']);
    const [reply] = await fake.waitFor(token);
    expect(reply?.embeds[0]?.description).toBe('You have **0 🍪**.');
    expect(logs).toContain('"event":"db.selected","kind":"uri"');

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(logs).toContain('"event":"shutdown.started"');
    expect(logs).toContain('"event":"shutdown.finished"');
  });
});
