import { beforeEach, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('heist_outcome');

/**
 * A console with a funded vault and Cookies for you and bob, in `locale`; no heist channel is
 * set (the default). `chancePct` 0 makes every heist fail, 100 makes every heist succeed.
 */
async function consoleWithVault(chancePct: number, locale: 'en' | 'de') {
  const c = makeConsole(t);
  for (const line of [
    'as admin /admin vault fund amount:200000',
    'as admin /admin cookies grant user:you amount:1000',
    'as admin /admin cookies grant user:bob amount:1000',
    `as admin /settings set key:vault.heist_base_chance_pct value:${chancePct}`,
    `as admin /settings set key:vault.heist_max_chance_pct value:${chancePct}`,
    `!locale ${locale}`,
  ])
    expect(await c.session.run(line)).toBe('ok');
  c.take();
  return c;
}

const START = { en: '/vault heist stake:100', de: '/tresor überfall einsatz:100' };
const JOIN = { en: 'Join the crew', de: 'Der Crew beitreten' };

/** What the console printed from the first edit of a message on. */
function edited(printed: string): string {
  const at = printed.indexOf('[edit #general]');
  expect(at, printed).toBeGreaterThanOrEqual(0);
  return printed.slice(at);
}

describe('the end of a heist, with no heist channel set', () => {
  beforeEach(() => clearDatabase(t.db));

  it.each([
    {
      locale: 'en',
      chance: 0,
      told: [
        '│ @you planned a heist on the vault. Stake: 100 🍪 each.',
        '│ Crew (2 members): @you, @bob',
        '│ 🚓 Caught (0 % chance)! @you, @bob lost their stakes to the vault: 100 🍪 each, 200 🍪 in all.',
      ],
    },
    {
      locale: 'de',
      chance: 0,
      told: [
        '┌ 🏦 Tresorraub',
        '│ @you hat einen Tresorraub geplant. Einsatz: 100 🍪 pro Person.',
        '│ Crew (2 Mitglieder): @you, @bob',
        '│ 🚓 Erwischt (0 % Chance)! Die Crew (@you, @bob) verliert ihre Einsätze an den Tresor: 100 🍪 pro Person, insgesamt 200 🍪.',
      ],
    },
    {
      locale: 'en',
      chance: 100,
      told: [
        '│ 💰 The crew got away (100 % chance)! @you, @bob took 600 🍪 from the vault: 300 🍪 each, plus their 100 🍪 stake back.',
      ],
    },
    {
      locale: 'de',
      chance: 100,
      told: [
        '│ 💰 Geschafft (100 % Chance)! Die Crew (@you, @bob) erbeutet 600 🍪 aus dem Tresor: 300 🍪 pro Person, dazu gibt es den Einsatz von 100 🍪 zurück.',
      ],
    },
  ] as const)(
    'GIVEN a crew of two ($locale, $chance % chance) THEN after the timer the crew message says how it ended, with the numbers, and has no Join button',
    async ({ locale, chance, told }) => {
      const c = await consoleWithVault(chance, locale);
      expect(await c.session.run(START[locale])).toBe('ok');
      expect(await c.session.run(`as bob !click ${JOIN[locale]}`)).toBe('ok');
      c.take();
      expect(await c.session.run('!wait 2m')).toBe('ok');
      const end = edited(c.take());
      for (const line of told) expect(end).toContain(line);
      expect(end).not.toContain('buttons:');
      expect(await c.session.run(`as zoe !click ${JOIN[locale]}`)).toBe('ok');
      expect(c.take()).toContain(
        locale === 'en'
          ? 'This heist has already set off. Nothing moved.'
          : 'Dieser Tresorraub läuft schon. Es wurden keine Kekse bewegt.',
      );
    },
  );

  it.each([
    {
      locale: 'en',
      told: '│ 🚫 Called off: 2 members joined, and a crew needs at least 3. Every stake of 100 🍪 went back.',
    },
    {
      locale: 'de',
      told: '│ 🚫 Abgeblasen: Nur 2 Mitglieder sind eingestiegen, eine Crew braucht mindestens 3. Alle Einsätze von je 100 🍪 wurden zurückgezahlt.',
    },
  ] as const)(
    'GIVEN a crew too small to set off ($locale) THEN its message says it was called off and every stake came back',
    async ({ locale, told }) => {
      const c = await consoleWithVault(50, locale);
      expect(await c.session.run('as admin /settings set key:vault.heist_min_crew value:3')).toBe('ok');
      expect(await c.session.run(START[locale])).toBe('ok');
      expect(await c.session.run(`as bob !click ${JOIN[locale]}`)).toBe('ok');
      c.take();
      expect(await c.session.run('!wait 2m')).toBe('ok');
      const end = edited(c.take());
      expect(end).toContain(told);
      expect(end).not.toContain('buttons:');
      for (const member of ['you', 'bob'])
        expect(await c.deps.services.cookies.balance(c.identities.get(member).id)).toBe(1_000);
    },
  );

  it.each([
    {
      locale: 'en',
      told: '│ 🚫 Called off: 1 member joined, and a crew needs at least 2. The 100 🍪 stake went back.',
    },
    {
      locale: 'de',
      told: '│ 🚫 Abgeblasen: Nur 1 Mitglied ist eingestiegen, eine Crew braucht mindestens 2. Der Einsatz von 100 🍪 wurde zurückgezahlt.',
    },
  ] as const)(
    'GIVEN a heist nobody joined ($locale) THEN its own message (known from the reply, no press needed) says it was called off and loses its Join button',
    async ({ locale, told }) => {
      const c = await consoleWithVault(50, locale);
      expect(await c.session.run(START[locale])).toBe('ok');
      c.take();
      expect(await c.session.run('!wait 2m')).toBe('ok');
      const end = edited(c.take());
      expect(end).toContain(told);
      expect(end).not.toContain('buttons:');
      expect(await c.deps.services.cookies.balance(c.identities.get('you').id)).toBe(1_000);
    },
  );
});
