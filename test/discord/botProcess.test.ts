import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FakeDiscord } from '../support/fakeDiscord.js';
import { type LoggingProcess, startNode } from '../support/nodeProcess.js';

const PORT = 30_000 + (process.pid % 2_000);

/** `npm start` with a token, as an operator runs it: a real process, stopped with SIGTERM. */
describe('the bot process', () => {
  const fake = new FakeDiscord();
  let bot: LoggingProcess;

  beforeAll(async () => {
    await fake.start();
    bot = startNode(['app/main.ts'], {
      DISCORD_TOKEN: 'fake-token',
      DISCORD_API_URL: fake.apiUrl,
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB_NAME: `bot_process_${Date.now()}`,
      LOG_LEVEL: 'info',
      HTTP_PORT: String(PORT),
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
    // The operator is told how to add the bot, with exactly the permissions it needs.
    expect(bot.logs()).toContain(
      'https://discord.com/oauth2/authorize?client_id=900000000000000003&scope=bot+applications.commands&permissions=268553216',
    );
    // The same process serves the canvas page and reports the gateway in its health (its HTTP
    // server starts after the gateway is ready, so the test waits for it to listen).
    await bot.waitForLog('"event":"http.listening"');
    const health = await fetch(`http://127.0.0.1:${PORT}/healthz`).then((r) => r.json());
    expect(health).toEqual({ ok: true, database: 'ok', gateway: 'connected' });
    expect((await fetch(`http://127.0.0.1:${PORT}/place`)).status).toBe(200);
    const metrics = await fetch(`http://127.0.0.1:${PORT}/metrics`).then((r) => r.text());
    expect(metrics).toContain('bot_interactions_total{command="/cookies balance",outcome="ok"} 1');

    expect(await bot.terminate()).toBe(0);
    expect(bot.logs()).toContain('"event":"shutdown.started"');
    expect(bot.logs()).toContain('"event":"shutdown.finished"');
  });
});

/** A deploy may restart the bot the moment it started: a SIGTERM during start-up is a clean stop too. */
describe('the bot process stopped while it starts', () => {
  const fake = new FakeDiscord();

  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('GIVEN SIGTERM before the gateway is ready THEN it finishes starting, then stops cleanly with exit 0', async () => {
    const bot = startNode(['app/main.ts'], {
      DISCORD_TOKEN: 'fake-token',
      DISCORD_API_URL: fake.apiUrl,
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB_NAME: `bot_process_early_${Date.now()}`,
      LOG_LEVEL: 'info',
      HTTP_PORT: '0',
    });
    try {
      await bot.waitForLog('"event":"startup"');
      expect(await bot.terminate()).toBe(0);
      expect(bot.logs()).toContain('"event":"shutdown.finished"');
    } finally {
      if (bot.child.exitCode === null) bot.child.kill('SIGKILL');
    }
  });
});
