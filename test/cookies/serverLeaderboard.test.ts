import { beforeEach, describe, expect, it, vi } from 'vitest';
import { consoleGuildId } from '../../src/console/consoleSession.js';
import type { LeaderboardImageRow } from '../../src/render/leaderboardImage.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

/** The rows each leaderboard image was drawn with (the names are only in the picture). */
const drawn = vi.hoisted(() => [] as { title: string; rows: LeaderboardImageRow[] }[]);
vi.mock('../../src/render/leaderboardImage.js', async (original) => {
  const real = await original<typeof import('../../src/render/leaderboardImage.js')>();
  return {
    ...real,
    renderLeaderboard: (...args: Parameters<typeof real.renderLeaderboard>) => {
      drawn.push({ title: args[0].title, rows: args[1] });
      return real.renderLeaderboard(...args);
    },
  };
});

const t = useTestDatabase('server_leaderboard');

/** The names and Cookies of the last image drawn, top to bottom. */
function lastBoard(): string[] {
  return (drawn.at(-1)?.rows ?? []).map((r) => `#${r.rank} ${r.name} ${r.value}`);
}

describe('a leaderboard per server in one economy', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    drawn.length = 0;
    c = makeConsole(t);
    await c.deps.runtimeConfig.set('cookies.leaderboard_cooldown_s', '0', 'admin');
    // ana and ben use the bot in the home server, cleo and dan in a second one; ana in both.
    for (const [who, amount] of [
      ['ana', 300],
      ['ben', 200],
      ['cleo', 500],
      ['dan', 100],
    ] as const)
      await c.session.run(`as admin /admin cookies grant user:${who} amount:${amount}`);
    // Someone who only ever received Cookies: no server saw them, no profile names them.
    await c.session.run('as admin /admin cookies grant user:ghost amount:10000');
    await c.session.run('as ana /cookies balance');
    await c.session.run('as ben /cookies balance');
    await c.session.run('!guild second');
    await c.session.run('as cleo /cookies balance');
    await c.session.run('as dan /cookies balance');
    await c.session.run('as ana /cookies balance');
    await c.session.run('!guild main');
    c.take();
  });

  it('GIVEN members seen in two servers THEN each server ranks its own members, by their names, and global ranks everyone', async () => {
    expect(await c.session.run('as ben /cookies leaderboard')).toBe('ok');
    expect(drawn.at(-1)?.title).toBe('Cookie leaderboard: this server');
    expect(lastBoard()).toEqual(['#1 ana 300', '#2 ben 200']);
    expect(c.take()).toContain('Top 2 by Cookies.');

    await c.session.run('!guild second');
    expect(c.take()).toContain(`(now in the server "second", id ${consoleGuildId('second')}`);
    expect(await c.session.run('as dan /cookies leaderboard')).toBe('ok');
    expect(lastBoard()).toEqual(['#1 cleo 500', '#2 ana 300', '#3 dan 100']);

    expect(await c.session.run('as dan /cookies leaderboard scope:global')).toBe('ok');
    expect(drawn.at(-1)?.title).toBe('Cookie leaderboard: all servers');
    // The member no one can name is left out, and the ranks stay true.
    expect(lastBoard()).toEqual(['#2 cleo 500', '#3 ana 300', '#4 ben 200', '#5 dan 100']);
    expect(lastBoard().join(' ')).not.toMatch(/Member|…/);
  });

  it('GIVEN a reader below the top of their server THEN they read their rank among its members, in German too', async () => {
    await c.deps.runtimeConfig.set('cookies.leaderboard_size', '3', 'admin');
    for (const [who, amount] of [
      ['erin', 400],
      ['fay', 250],
    ] as const) {
      await c.session.run(`as admin /admin cookies grant user:${who} amount:${amount}`);
      await c.session.run(`as ${who} /cookies balance`);
    }
    await c.session.run('!locale de');
    expect(await c.session.run('as ben /kekse rangliste')).toBe('ok');
    expect(drawn.at(-1)?.title).toBe('Keks-Rangliste: dieser Server');
    expect(c.take()).toContain('Du bist auf Platz 4 mit 200 🍪.');
    expect(await c.session.run('as ben /kekse rangliste bereich:alle')).toBe('ok');
    expect(drawn.at(-1)?.title).toBe('Keks-Rangliste: alle Server');
    expect(c.take()).toContain('Du bist auf Platz 6 mit 200 🍪.');
  });

  it('GIVEN the console moves between servers THEN the members are recorded where they acted, with the time first seen', async () => {
    const ana = c.identities.get('ana').id;
    const home = await c.deps.serverMembers.members(consoleGuildId('main'));
    const second = await c.deps.serverMembers.members(consoleGuildId('second'));
    expect([...home.values()].sort()).toEqual(['admin', 'ana', 'ben']);
    expect([...second.values()].sort()).toEqual(['ana', 'cleo', 'dan']);
    expect(await c.deps.serverMembers.joinedAt(consoleGuildId('second'), ana)).toEqual(c.clock.now());
  });
});
