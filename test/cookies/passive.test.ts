import { beforeEach, describe, expect, it } from 'vitest';
import type { BotDeps } from '../../src/interactions/types.js';
import { cryptoRng, type Rng } from '../../src/rng.js';
import { makeBotDeps } from '../support/botHarness.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('cookies_passive');
const VICTIM = '841000000000000001';
const THIEVES = Array.from({ length: 20 }, (_, i) => `8410000000000001${String(i).padStart(2, '0')}`);
const HOUR = 3_600_000;

/** Always succeeds: the roll is the lowest possible. */
const luckyRng: Rng = { ...cryptoRng, int: (min) => min };

async function setUp() {
  const made = makeBotDeps(t, { rng: luckyRng });
  const { deps, clock } = made;
  await deps.profiles.touch({ id: VICTIM, name: 'victim' });
  await deps.services.cookies.grant({
    opId: 'seed',
    adminId: 'admin',
    to: VICTIM,
    amount: 100_000,
    reason: '',
  });
  // Every success carries 100 and no budget stops one: only passive mode decides.
  for (const [key, value] of [
    ['cookies.collect_min', '1000'],
    ['cookies.collect_max', '1000'],
    ['cookies.steal_allowance_pct', '100'],
    ['cookies.steal_max_loot', '100'],
    ['cookies.steal_hourly_budget', '1000000'],
  ] as const)
    await deps.runtimeConfig.set(key, value, 'admin');
  for (const thief of THIEVES) await deps.services.collect.collect(thief, 'command');
  clock.advance(25 * HOUR);
  return made;
}

function wave(deps: BotDeps, tag: string) {
  return THIEVES.map((thief) =>
    deps.services.steal.steal({ opId: `${tag}-${thief}`, thief, victim: VICTIM }).catch((e: unknown) => e),
  );
}

async function lost(deps: BotDeps): Promise<number> {
  await deps.ledger.flush();
  return 100_000 - (await deps.ledger.balanceOf('cookies', VICTIM));
}

describe('passive mode against concurrent thieves', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 20 steals in flight while the victim goes passive THEN each is paid once or refused, and after it every one is refused', async () => {
    const { deps } = await setUp();
    const attempts = wave(deps, 'race');
    const switched = deps.services.passive.on(VICTIM);
    const results = await Promise.all(attempts);
    await switched;
    const stolen = results.filter((r) => (r as { status?: string }).status === 'stolen');
    for (const r of results) {
      if (!stolen.includes(r)) expect(r).toMatchObject({ code: 'STEAL_PASSIVE', context: { who: 'victim' } });
    }
    expect(await lost(deps)).toBe(stolen.length * 100);
    expect(await booksProblems(t.cols)).toEqual([]);

    const after = await Promise.all(wave(deps, 'after'));
    for (const r of after) expect(r).toMatchObject({ code: 'STEAL_PASSIVE', context: { who: 'victim' } });
    expect(await lost(deps)).toBe(stolen.length * 100);
    expect(await booksProblems(t.cols)).toEqual([]);
  });
});

describe('/cookies passive', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t);
    await c.deps.runtimeConfig.set('cookies.steal_cooldown_s', '0', 'admin');
    for (const who of ['ana', 'bob']) {
      await c.session.run(`as admin /admin cookies grant user:${who} amount:1000`);
      await c.session.run(`as ${who} /cookies collect`);
    }
    await c.session.run('!wait 25h');
    c.take();
  });

  it('GIVEN a member going passive THEN they neither steal nor are robbed, and go back only after the cooldown', async () => {
    await c.session.run('as bob /cookies passive state:on');
    expect(c.take()).toContain(
      'Passive mode is on: you cannot steal and nobody can rob you, in every server.',
    );
    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toContain('bob is in passive mode and cannot be robbed.');
    await c.session.run('as bob /cookies steal user:ana');
    expect(c.take()).toContain('You are in passive mode: you cannot steal.');
    await c.session.run('as bob /cookies profile');
    expect(c.take()).toContain('Passive mode since');

    await c.session.run('!wait 23h');
    await c.session.run('as bob /cookies passive state:off');
    expect(c.take()).toMatch(
      /You switched passive mode on 23 hours ago; it can be switched off only 24 hours after, in 60 minutes/,
    );
    await c.session.run('!wait 1h');
    await c.session.run('as bob /cookies passive state:off');
    expect(c.take()).toContain('Passive mode is off: you can steal and be robbed again.');
    await c.session.run('as ana /cookies steal user:bob');
    expect(c.take()).toMatch(/chance/);
  });

  it('GIVEN a German member THEN passive mode speaks German', async () => {
    await c.session.run('!locale de');
    await c.session.run('as bob /kekse passiv zustand:an');
    expect(c.take()).toContain('Der passive Modus ist an');
    await c.session.run('as bob /kekse passiv zustand:aus');
    expect(c.take()).toContain('ausschalten kannst du ihn erst 24 Stunden danach');
  });
});
