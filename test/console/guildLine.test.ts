import { describe, expect, it } from 'vitest';
import { CONSOLE_GUILD_ID, consoleGuildId } from '../../src/console/consoleSession.js';
import { makeConsole } from '../support/consoleHarness.js';
import { useTestDatabase } from '../support/database.js';

const t = useTestDatabase('console_guild');

describe('the console in more than one server', () => {
  it('GIVEN server names THEN each has a stable snowflake-shaped id, and main keeps the first', () => {
    expect(consoleGuildId('main')).toBe(CONSOLE_GUILD_ID);
    expect(consoleGuildId('second')).toBe(consoleGuildId('second'));
    expect(consoleGuildId('second')).not.toBe(consoleGuildId('third'));
    for (const name of ['second', 'third', 'zweiter']) expect(consoleGuildId(name)).toMatch(/^2\d{17}$/);
  });

  it.each([
    [
      '!guild',
      'en',
      '!guild needs a server name (letters, digits, - and _), e.g. !guild second; !guild main goes back',
    ],
    ['!guild two words', 'en', '!guild needs a server name'],
    ['as bob !guild second', 'en', '!guild moves the whole console to another server; drop "as"'],
    ['!guild', 'de', 'Fehler: !guild braucht einen Servernamen'],
  ] as const)('refuses %j (%s) with what to write, and stays where it was', async (line, locale, message) => {
    const c = makeConsole(t);
    await c.session.run(`!locale ${locale}`);
    c.take();
    expect(await c.session.run(line)).toBe('failed');
    expect(c.take()).toContain(message);
    expect(await c.session.run('!guild main')).toBe('ok');
    expect(c.take()).toContain(CONSOLE_GUILD_ID);
  });

  it('GIVEN !guild in German THEN it says where the lines now happen, in German', async () => {
    const c = makeConsole(t);
    await c.session.run('!locale de');
    c.take();
    expect(await c.session.run('!guild Zweiter')).toBe('ok');
    expect(c.take()).toContain(`(jetzt im Server „zweiter“, ID ${consoleGuildId('zweiter')}`);
  });
});
