import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FakeDiscord } from '../support/fakeDiscord.js';
import { type LoggingProcess, startNode } from '../support/nodeProcess.js';

/** `npm start` with a token, as an operator runs it: a real process, stopped with SIGTERM. */
describe('the bot process', () => {
  const fake = new FakeDiscord();
  let bot: LoggingProcess;

  beforeAll(async () => {
    await fake.start();
    bot = startNode(['src/main.ts'], {
      DISCORD_TOKEN: 'fake-token',
      DISCORD_API_URL: fake.apiUrl,
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB_NAME: `bot_process_${Date.now()}`,
      LOG_LEVEL: 'info',
    });
    await bot.waitForLog('"event":"discord.ready"');
  });

  afterAll(async () => {
    if (bot.child.exitCode === null) bot.child.kill('SIGKILL');
    await fake.stop();
  });

  it('answers a slash command, then shuts down cleanly on SIGTERM', async () => {
    const token = fake.command({ id: '800000000000000042', username: 'operator' }, 'cookies', ['balance']);
    const [reply] = await fake.waitFor(token);
    expect(reply?.embeds[0]?.description).toBe('You have **0 🍪**.');
    expect(bot.logs()).toContain('"event":"db.selected","kind":"uri"');

    expect(await bot.terminate()).toBe(0);
    expect(bot.logs()).toContain('"event":"shutdown.started"');
    expect(bot.logs()).toContain('"event":"shutdown.finished"');
  });
});
