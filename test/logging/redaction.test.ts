import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';

/** docs/operating.md, "Privacy": tokens, secrets and network addresses never reach the logs. */
const TOKEN = 'MTA5ODc2NTQzMjEwOTg3NjU0.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB';
const CLIENT_SECRET = 'oauth-client-secret-7f3a9c';

function capture() {
  const lines: string[] = [];
  const log = createLogger(
    'info',
    { write: (line: string) => lines.push(line) },
    { secrets: [TOKEN, CLIENT_SECRET] },
  );
  return { log, text: () => lines.join('') };
}

describe('what the logs keep', () => {
  it('GIVEN an error whose message and stack quote the bot token THEN the line says it failed and holds no token', () => {
    const { log, text } = capture();
    const error = new Error(`request with Authorization: Bot ${TOKEN} was refused`);
    log.error({ event: 'discord.error', err: error }, `login failed for ${TOKEN}`);
    expect(text()).not.toContain(TOKEN);
    expect(text()).toContain('discord.error');
    expect(text()).toContain('[redacted]');
    expect(JSON.parse(text()).err.message).toBe('request with Authorization: Bot [redacted] was refused');
  });

  it('GIVEN fields named for secrets and addresses, at any depth THEN their values are redacted and the rest is kept', () => {
    const { log, text } = capture();
    log.info({
      event: 'web.request',
      ip: '203.0.113.9',
      request: {
        remoteAddress: '2001:db8::1',
        headers: { authorization: 'Bearer x', cookie: 'place_session=abc' },
      },
      worker: { secret: 'a'.repeat(64), id: 'w-0123456789abcdef' },
      user: 'kept',
    });
    const line = text();
    for (const hidden of ['203.0.113.9', '2001:db8::1', 'Bearer x', 'place_session=abc', 'a'.repeat(64)]) {
      expect(line).not.toContain(hidden);
    }
    expect(line).toContain('w-0123456789abcdef');
    expect(line).toContain('kept');
  });

  it('GIVEN a string shaped like a Discord token that is not this bot’s, or the OAuth secret inside a text THEN neither is written', () => {
    const { log, text } = capture();
    const other = 'ODk1NjQzMjEwOTg3NjU0MzIx.Yx1a2b.ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ';
    log.warn({ event: 'config.seen', detail: [`token ${other}`, `secret=${CLIENT_SECRET}`] }, 'seen');
    expect(text()).not.toContain(other);
    expect(text()).not.toContain(CLIENT_SECRET);
  });
});
