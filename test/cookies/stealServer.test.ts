import { beforeEach, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('steal_server');

/** Any outcome of a roll (robbed or caught): the attempt got past every refusal. */
const ROLLED = /chance/;

describe('/cookies steal in a server', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t);
    await c.deps.runtimeConfig.set('cookies.steal_cooldown_s', '0', 'admin');
    for (const who of ['ana', 'bob'])
      await c.session.run(`as admin /admin cookies grant user:${who} amount:1000`);
    // ana fills her loot bag; bob is seen in the home server only later.
    await c.session.run('as ana /cookies collect');
    c.take();
  });

  it('GIVEN members new to this server THEN each is refused with the time left, a stranger is no member here, and a day later it rolls', async () => {
    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toContain('has never been seen in this server; only its members can be robbed here.');

    await c.session.run('as bob /cookies balance');
    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toMatch(/You joined this server only recently: you may steal here in 24 hours\./);

    await c.session.run('!wait 23h');
    await c.session.run('as cleo /cookies balance');
    await c.session.run('!wait 2h');
    await c.session.run('as ana /cookies steal user:cleo');
    expect(c.take()).toMatch(
      /cleo joined this server only recently and is protected from thieves here until in 22 hours\./,
    );

    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toMatch(ROLLED);

    // Another server counts its own time: ana is new there, bob was never seen there.
    await c.session.run('!guild second');
    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toContain('has never been seen in this server');
    await c.session.run('as bob /cookies balance');
    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toContain('You joined this server only recently');
  });

  it('GIVEN a server switching stealing on THEN it starts only after the start delay, which the reply and the audit give', async () => {
    await c.session.run('as bob /cookies balance');
    await c.session.run('as admin /settings set key:admin.audit_channel value:#audit');
    await c.session.run('!wait 25h');
    await c.session.run('as admin /settings set key:cookies.steal_enabled value:off');
    await c.session.run('as admin /settings set key:cookies.steal_enabled value:on');
    const switched = c.take();
    expect(switched).toMatch(
      /It takes effect in 24 hours \(Mar 3, 2026, 01:00 PM UTC\), after the start delay in cookies\.steal_start_delay_h\./,
    );
    expect(switched).toContain(
      'changed cookies.steal_enabled for this server: off → on. ⏳ In effect from Mar 3, 2026, 01:00 PM UTC.',
    );
    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toContain(
      'Stealing was only just switched on in this server: it starts in 24 hours (Mar 3, 2026, 01:00 PM UTC).',
    );
    await c.session.run('!wait 23h');
    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toContain('Stealing was only just switched on');
    await c.session.run('!wait 2h');
    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toMatch(ROLLED);
    // Saved on again (a form saved twice): it was on already, so the delay does not start over.
    await c.session.run('as admin /settings set key:cookies.steal_enabled value:on');
    const saved = c.take();
    expect(saved).toContain('cookies.steal_enabled is now on (was on)');
    expect(saved).not.toContain('It takes effect in');

    // The other servers keep the default, switched on from the start.
    await c.session.run('!guild second');
    await c.session.run('as bob /cookies balance');
    await c.session.run('as ana /cookies balance');
    await c.session.run('!wait 25h');
    // The roll above may have emptied her loot bag (a catch costs it): she fills it again.
    await c.session.run('as ana /cookies collect');
    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toMatch(ROLLED);
  });

  it('GIVEN the delay THEN German admins and members read it in German', async () => {
    await c.session.run('as bob /cookies balance');
    await c.session.run('!wait 25h');
    await c.session.run('as admin /settings set key:cookies.steal_enabled value:off');
    await c.session.run('as admin /settings set key:cookies.steal_enabled value:on');
    c.take();
    await c.session.run('!locale de');
    await c.session.run('as ana /kekse stehlen mitglied:bob');
    expect(c.take()).toMatch(
      /Das Stehlen wurde auf diesem Server gerade erst eingeschaltet: Es beginnt in 24 Stunden/,
    );
  });

  it("GIVEN the join times Discord sent THEN they count over the bot's own record, and the default switched on delays every server without its own", async () => {
    const HOUR = 3_600_000;
    const guildId = '200000000000000077';
    const now = c.deps.clock.now().getTime();
    const steal = (victimJoinedAt: Date | null, thiefJoinedAt: Date | null = new Date(now - 48 * HOUR)) =>
      c.deps.services.steal
        .steal({
          opId: `direct-${victimJoinedAt?.getTime()}`,
          thief: c.identities.get('ana').id,
          victim: c.identities.get('bob').id,
          place: { guildId, thiefJoinedAt, victimJoinedAt },
        })
        .catch((e: unknown) => e);
    expect(await steal(null)).toMatchObject({ code: 'STEAL_NOT_MEMBER_HERE' });
    expect(await steal(new Date(now - 2 * HOUR))).toMatchObject({
      code: 'STEAL_NEW_HERE',
      context: { who: 'victim', until: now + 22 * HOUR },
    });
    expect(await steal(new Date(now - 48 * HOUR), new Date(now - HOUR))).toMatchObject({
      code: 'STEAL_NEW_HERE',
      context: { who: 'thief' },
    });

    await c.deps.runtimeConfig.set('cookies.steal_enabled', 'off', 'admin');
    await c.deps.runtimeConfig.set('cookies.steal_enabled', 'on', 'admin');
    expect(await steal(new Date(now - 48 * HOUR))).toMatchObject({
      code: 'STEAL_NOT_STARTED',
      context: { at: now + 24 * HOUR },
    });
  });
});
