import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FakeDiscord } from '../support/fakeDiscord.js';
import { type LoggingProcess, PROCESS_TEST_TIMEOUT_MS, startNode } from '../support/nodeProcess.js';

/** `npm start` on a fresh clone whose operator put the token in `.env`, as README says to. */
describe('the bot configured by its .env file', () => {
  const fake = new FakeDiscord();
  let bot: LoggingProcess;

  beforeAll(async () => {
    await fake.start();
    const dir = mkdtempSync(join(tmpdir(), 'envfile-'));
    const envFile = join(dir, '.env');
    writeFileSync(
      envFile,
      [
        '# as copied from .env.example, then filled in',
        'DISCORD_TOKEN=fake-token-from-dotenv',
        `DISCORD_API_URL=${fake.apiUrl}`,
        `MONGODB_URI=${inject('mongoUri')}`,
        `MONGODB_DB_NAME=env_file_${Date.now()}`,
        // The shell's HTTP_PORT=0 (the test run's) wins over this.
        'HTTP_PORT=8787',
      ].join('\n'),
    );
    bot = startNode(['app/main.ts'], { ENV_FILE: envFile, DISCORD_TOKEN: undefined, LOG_LEVEL: 'info' });
  }, PROCESS_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await bot?.kill('SIGKILL');
    await fake.stop();
  });

  it(
    'GIVEN the token only in .env THEN the first line says so, the bot connects to Discord and answers; the shell’s variables win',
    async () => {
      await bot.waitForLog('"event":"discord.ready"');
      const first = JSON.parse(bot.logs().split('\n')[0] as string) as { event: string; msg: string };
      expect(first.event).toBe('startup');
      expect(first.msg).toContain('DISCORD_TOKEN set in .env: connecting to Discord');
      expect(first.msg).toContain('database MONGODB_URI');
      expect(first.msg).toContain('no web server (HTTP_PORT=0)');
      const [reply] = await fake.waitFor(
        fake.command({ id: '870000000000000077', username: 'op' }, 'cookies', ['balance']),
      );
      expect(reply?.embeds[0]?.description).toBe('You have **0 🍪**.');
      expect(await bot.terminate()).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
