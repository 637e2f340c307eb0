import { beforeEach, describe, expect, it } from 'vitest';
import { handValue } from '../../utils/games/houseGames/blackjack/rules.js';
import type { RoundDoc } from '../../utils/games/roundStore.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('blackjack_timeout');
const rounds = () => t.db.collection<RoundDoc>('games_rounds');

async function consoleWithVault(locale: 'en' | 'de') {
  const c = makeConsole(t);
  for (const line of [
    'as admin /admin vault fund amount:200000',
    'as admin /admin cookies grant user:you amount:10000',
    `!locale ${locale}`,
  ])
    expect(await c.session.run(line)).toBe('ok');
  c.take();
  return c;
}

const TEXT = {
  en: { start: '/games blackjack bet:50', hit: 'Hit', timedOut: '⏱️ Time ran out, so your hand stood at' },
  de: {
    start: '/spiele blackjack einsatz:50',
    hit: 'Karte',
    timedOut: '⏱️ Die Zeit ist abgelaufen: Du hältst automatisch bei',
  },
} as const;

/** The result line of a settled hand, whichever way it went. */
const RESULT = {
  en: /You won|A push|You lost|You get back/,
  de: /Du hast .* gewonnen|Unentschieden|Du hast .* verloren|Du bekommst/,
};

/** Deals hands until one is still open after the member's first Hit (the cards are random). */
async function handLeftAfterOneHit(c: Awaited<ReturnType<typeof consoleWithVault>>, locale: 'en' | 'de') {
  for (let attempt = 0; attempt < 40; attempt++) {
    expect(await c.session.run(TEXT[locale].start)).toBe('ok');
    const round = (await rounds().find({}).sort({ createdAt: -1, _id: -1 }).limit(1).next()) as RoundDoc;
    if (round.status !== 'playing') continue;
    expect(await c.session.run(`!click ${TEXT[locale].hit}`)).toBe('ok');
    const after = (await rounds().findOne({ _id: round._id })) as RoundDoc;
    if (after.status === 'playing') return after;
  }
  throw new Error('no hand stayed open after one hit in 40 deals');
}

describe('a blackjack hand its member walks away from', () => {
  beforeEach(() => clearDatabase(t.db));

  it.each(['en', 'de'] as const)(
    'GIVEN a member who stops acting (%s) THEN when the timer stands the hand, its message is edited to say time ran out, with the result and no buttons',
    async (locale) => {
      const c = await consoleWithVault(locale);
      const hand = await handLeftAfterOneHit(c, locale);
      c.take();
      expect(await c.session.run('!wait 10m')).toBe('ok');
      const ended = (await rounds().findOne({ _id: hand._id })) as RoundDoc;
      expect(ended).toMatchObject({ status: 'settled', timedOut: true });
      const printed = c.take();
      const at = printed.indexOf('[edit #general]');
      expect(at, printed).toBeGreaterThanOrEqual(0);
      const edit = printed.slice(at);
      expect(edit).toContain(`${TEXT[locale].timedOut} ${handValue(ended.hand?.player ?? []).total}.`);
      expect(edit).toMatch(RESULT[locale]);
      expect(edit).not.toContain('buttons:');
    },
  );

  it.each([
    ['en', '💥 Bust: you went over 21.'],
    ['de', '💥 Überkauft: Du hast mehr als 21.'],
  ] as const)('GIVEN a member who hits past 21 (%s) THEN the hand says so', async (locale, bust) => {
    const c = await consoleWithVault(locale);
    for (let attempt = 0; attempt < 40; attempt++) {
      expect(await c.session.run(TEXT[locale].start)).toBe('ok');
      for (let hits = 0; hits < 10; hits++) {
        const round = (await rounds().find({}).sort({ createdAt: -1, _id: -1 }).limit(1).next()) as RoundDoc;
        if (round.status !== 'playing') break;
        expect(await c.session.run(`!click ${TEXT[locale].hit}`)).toBe('ok');
      }
      const printed = c.take();
      if (printed.includes(bust)) return;
    }
    throw new Error('no hand went bust in 40 deals');
  });

  it.each(['en', 'de'] as const)(
    "GIVEN a member who never presses a button (%s) THEN the hand's own message (known from the reply) says time ran out, with the result, and loses its buttons",
    async (locale) => {
      const c = await consoleWithVault(locale);
      let hand: RoundDoc | null = null;
      for (let attempt = 0; attempt < 40 && !hand; attempt++) {
        expect(await c.session.run(TEXT[locale].start)).toBe('ok');
        const round = (await rounds().find({}).sort({ createdAt: -1, _id: -1 }).limit(1).next()) as RoundDoc;
        if (round.status === 'playing') hand = round;
      }
      if (!hand) throw new Error('every hand in 40 deals was a natural');
      c.take();
      expect(await c.session.run('!wait 10m')).toBe('ok');
      const ended = (await rounds().findOne({ _id: hand._id })) as RoundDoc;
      const printed = c.take();
      const at = printed.indexOf('[edit #general]');
      expect(at, printed).toBeGreaterThanOrEqual(0);
      const end = printed.slice(at);
      expect(end).toContain(`${TEXT[locale].timedOut} ${handValue(ended.hand?.player ?? []).total}.`);
      expect(end).toMatch(RESULT[locale]);
      expect(end).not.toContain('buttons:');
    },
  );
});
