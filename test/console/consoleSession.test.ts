import { existsSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseConsoleLine, parseDuration } from '../../src/console/parseConsoleLine.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('console');

describe('the local console', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t);
  });

  it('GIVEN "as NAME" THEN the line runs as that member, with a stable id per name', async () => {
    expect(await c.session.run('as admin /admin cookies grant user:Bob amount:70')).toBe('ok');
    expect(c.take()).toBe('[ephemeral] 🎁 Granted 70 🍪 to @Bob; they now have 70 🍪.\n');
    expect(await c.session.run('as bob /cookies balance')).toBe('ok');
    expect(c.take()).toContain('│ You have 70 🍪.');
    expect(c.identities.get('BOB').id).toBe(c.identities.get('@bob').id);
    expect(c.identities.get('bob').id).toMatch(/^\d{18}$/);
  });

  it('lists buttons, and !click presses them as the current member; a second click replays', async () => {
    await c.session.run('as admin /admin cookies grant user:you amount:100');
    await c.session.run('/cookies give user:zoe amount:30');
    expect(c.take()).toMatch(
      /buttons: \[Give\] \(cookies\.give:\d+\) {2}\[Cancel\] \(cookies\.give_cancel:\d+\)/,
    );
    expect(await c.session.run('as zoe !click Give')).toBe('refused');
    expect(c.take()).toContain('❌ This button belongs to @you. Run the command yourself to get your own.');
    expect(await c.session.run('!click give')).toBe('ok');
    expect(c.take()).toContain('[updated message] ✅ You gave 30 🍪 to @zoe. You have 70 🍪 left.');
    expect(await c.session.run('!click Give')).toBe('ok');
    expect(c.take()).toContain('Already done: you gave 30 🍪');
    expect(await c.deps.ledger.balanceOf('cookies', c.identities.get('zoe').id)).toBe(30);
  });

  it('lists a select menu, and !choose picks an option of it', async () => {
    await c.session.run('/help');
    expect(c.take()).toContain('menu: Details of one topic (help.topic): [General] [Cookies]');
    expect(await c.session.run('!choose cookies')).toBe('ok');
    const text = c.take();
    expect(text).toContain('[ephemeral] [updated message]');
    expect(text).toContain('┌ Help: Cookies');
    expect(text).toContain('• user (optional): Whose balance (default: yours)');
  });

  it('GIVEN a cancelled give WHEN Give is pressed afterwards THEN it says so and nothing moves', async () => {
    await c.session.run('as admin /admin cookies grant user:you amount:100');
    await c.session.run('/cookies give user:bob amount:20');
    expect(await c.session.run('!click Cancel')).toBe('ok');
    expect(c.take()).toContain(
      '[updated message] Cancelled the give of 20 🍪 to @bob. No Cookies were moved.',
    );
    expect(await c.session.run('!click Give')).toBe('ok');
    expect(c.take()).toContain('This give of 20 🍪 to @bob was cancelled. No Cookies were moved.');
    expect(await c.deps.ledger.balanceOf('cookies', c.identities.get('bob').id)).toBe(0);
  });

  it('GIVEN a give that went through WHEN Cancel is pressed afterwards THEN it says the Cookies were given', async () => {
    await c.session.run('as admin /admin cookies grant user:you amount:100');
    await c.session.run('/cookies give user:bob amount:20');
    await c.session.run('!click Give');
    c.take();
    expect(await c.session.run('!click Cancel')).toBe('ok');
    expect(c.take()).toContain('Too late to cancel: you already gave 20 🍪 to @bob.');
    expect(await c.deps.ledger.balanceOf('cookies', c.identities.get('bob').id)).toBe(20);
  });

  it('GIVEN a give prompt older than ten minutes WHEN Give is pressed THEN it has expired and nothing moves', async () => {
    await c.session.run('as admin /admin cookies grant user:you amount:100');
    await c.session.run('/cookies give user:bob amount:20');
    await c.session.run('!wait 11m');
    c.take();
    expect(await c.session.run('!click Give')).toBe('ok');
    expect(c.take()).toContain(
      'This give of 20 🍪 to @bob expired. No Cookies were moved; run /cookies give again.',
    );
    expect(await c.deps.ledger.balanceOf('cookies', c.identities.get('you').id)).toBe(100);
  });

  it('GIVEN a second console run on the same database THEN its gives are new operations', async () => {
    await c.session.run('as admin /admin cookies grant user:you amount:100');
    for (const run of [c, makeConsole(t)]) {
      await run.session.run('/cookies give user:zoe amount:10');
      expect(await run.session.run('!click Give')).toBe('ok');
      expect(run.take()).toContain('✅ You gave 10 🍪 to @zoe.');
    }
    expect(await c.deps.ledger.balanceOf('cookies', c.identities.get('zoe').id)).toBe(20);
  });

  it('saves images under the out folder and prints their path and size', async () => {
    await c.session.run('as admin /admin cookies grant user:amy amount:5');
    c.take();
    expect(await c.session.run('/cookies leaderboard')).toBe('ok');
    const text = c.take();
    expect(text).toContain('… thinking (deferred)');
    const match = /attachment: (\S+\.png) \((\d+)x(\d+)\)/.exec(text);
    expect(match?.slice(2)).toEqual(['960', '180']);
    expect(existsSync(match?.[1] as string)).toBe(true);
  });

  it('!wait moves the simulated clock that every service reads', async () => {
    await c.session.run('as admin /settings set key:cookies.leaderboard_size value:5');
    await c.session.run('!wait 2h');
    c.take();
    await c.session.run('as admin /settings show');
    expect(c.take()).toContain('changed by @admin 2 hours ago');
  });

  it.each([
    [
      '/cookies',
      '/cookies needs one of: balance, collect, give, steal, passive, profile, history, leaderboard',
    ],
    ['/cookies give user:bob', '/cookies give needs amount:…'],
    [
      '/cookies give bob 50',
      '/cookies give takes its options as name:value: /cookies give user:bob amount:50',
    ],
    ['/cookies give bob', '/cookies give takes its options as name:value: /cookies give user:bob amount:…'],
    ['/cookies give user:bob amount:ten', 'amount must be a whole number'],
    ['/cookies give user:bob amount:5 tip:yes', '/cookies give has no option "tip" (options: user, amount)'],
    ['/nope', 'there is no /nope'],
    ['!click Give', 'no button "Give"'],
    ['hello', '"hello" is not a command'],
    ['!wait soon', '"soon" is not a duration'],
    ['!wait 99999999999999999999d', '"99999999999999999999d" is not a duration'],
    ['!wait 4000d', '"4000d" is too long: !wait goes at most 3650d'],
    ['/cookies give user:bob amount:0x10', 'amount must be a whole number'],
    ['/cookies give user:bob amount:1e2', 'amount must be a whole number'],
    ['/cookies give user:bob amount:1.0000000000000001', 'amount must be a whole number'],
    ['/cookies give user:bob amount:9007199254740993', 'amount must be a whole number'],
    ['/cookies give user:bob user:carol amount:5', 'option user is given twice'],
    ['/cookies give user: amount:5', 'user is empty'],
    ['/cookies give user:@ amount:5', 'user must be a member name'],
  ])('refuses the line %j with a clear message and counts it as failed', async (line, message) => {
    expect(await c.session.run(line)).toBe('failed');
    expect(c.take()).toContain(`error: ${message}`);
  });

  it('reads quoted values, brackets around "as NAME", comments and durations', () => {
    expect(parseConsoleLine('[as bob] /settings set key:a value:"x y"')).toMatchObject({
      kind: 'command',
      as: 'bob',
      commandName: 'settings',
      // The line's words only: the console finds `set` among /settings' subcommands when it runs.
      group: 'set',
      subcommand: null,
      args: new Map([
        ['key', 'a'],
        ['value', 'x y'],
      ]),
    });
    expect(parseConsoleLine('  # a comment')).toEqual({ kind: 'skip' });
    expect([parseDuration('90s'), parseDuration('5m'), parseDuration('2h'), parseDuration('1d')]).toEqual([
      90_000, 300_000, 7_200_000, 86_400_000,
    ]);
  });
});
