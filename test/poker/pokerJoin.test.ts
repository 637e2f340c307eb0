import { beforeEach, describe, expect, it } from 'vitest';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('poker_join');

/** A console with alice (the host) and bob seated at a 5/10 table (buy-ins 200 to 400), and carl and dave funded. */
async function tableWithTwo(locale: 'en' | 'de' = 'en') {
  const c = makeConsole(t);
  if (locale === 'de') await c.session.run('!locale de');
  for (const member of ['alice', 'bob', 'carl', 'dave'])
    await c.session.run(`as admin /admin cookies grant user:${member} amount:1000`);
  await c.session.run('as alice /poker create small_blind:5 max_buy_in:400');
  const sit = locale === 'en' ? 'Sit 200' : 'Hinsetzen mit 200';
  await c.session.run(`as alice !click ${sit}`);
  await c.session.run(`as bob !click ${sit}`);
  const tableId = async () => {
    const tables = await t.db.collection<TableDoc>('poker_tables').find({}).toArray();
    return tables[0] as TableDoc;
  };
  const id = (name: string) => c.identities.get(name).id;
  c.take();
  return { c, tableId, id };
}

describe('sitting down at a poker table', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a hand in play WHEN a latecomer sits down THEN they are seated for the next hand, the board says so, and the next hand deals them in', async () => {
    const { c, tableId, id } = await tableWithTwo();
    await c.session.run('as alice !click Start');
    await c.session.run('as carl /poker join buyin:300');
    expect(c.take()).toContain('@carl 300 chips · plays from the next hand');
    let table = await tableId();
    expect(table.game.seats.some((s) => s?.userId === id('carl') && s.stack === 300)).toBe(true);
    expect(table.game.hand?.players.map((p) => p.userId)).not.toContain(id('carl'));
    // Their cards and the betting buttons are not theirs until the next hand.
    await c.session.run('as carl !click My cards');
    expect(c.take()).toContain('You play from the next hand: this one was dealt before you sat down.');
    await c.session.run('as alice !click Fold');
    await c.session.run('!wait 6s');
    table = await tableId();
    expect(table.game.handsPlayed).toBe(2);
    expect(table.game.hand?.players.map((p) => p.userId)).toContain(id('carl'));
  });

  it('GIVEN /poker join with any amount between the limits THEN the member sits down with it, and during a hand for the next one', async () => {
    const { c, tableId, id } = await tableWithTwo();
    await c.session.run('as carl /poker join buyin:237');
    expect(c.take()).toContain('🪑 @carl sits down with 237 chips.');
    await c.session.run('as alice !click Start');
    await c.session.run('as dave /poker join buyin:399');
    expect(c.take()).toContain('🪑 @dave sits down with 399 chips and plays from the next hand.');
    const table = await tableId();
    const stacks = Object.fromEntries(table.game.seats.flatMap((s) => (s ? [[s.userId, s.stack]] : [])));
    expect(stacks[id('dave')]).toBe(399);
    expect(await c.deps.services.cookies.balance(id('carl'))).toBe(1000 - 237);
  });

  it('GIVEN a buy-in outside the table limits or no table in the channel THEN the refusal gives the numbers and the way, in English and German', async () => {
    const { c, id } = await tableWithTwo();
    await c.session.run('as carl /poker join buyin:5000');
    expect(c.take()).toContain(
      'The buy-in at this table is between 200 and 400 🍪; 5,000 🍪 is not possible.',
    );
    await c.session.run('!locale de');
    await c.session.run('as carl /poker hinsetzen buyin:150');
    expect(c.take()).toContain(
      'Das Buy-in an diesem Tisch liegt zwischen 200 und 400 🍪; 150 🍪 geht nicht.',
    );
    expect(await c.deps.services.cookies.balance(id('carl'))).toBe(1000);
    await c.session.run('as alice !click Close');
    c.take();
    await c.session.run('as carl /poker hinsetzen buyin:250');
    expect(c.take()).toContain(
      'In diesem Kanal ist kein Pokertisch offen. Eröffne einen mit /poker eröffnen.',
    );
    await c.session.run('!locale en');
    await c.session.run('as carl /poker join buyin:250');
    expect(c.take()).toContain('There is no open poker table in this channel. Open one with /poker create.');
  });

  it('GIVEN a German table THEN a latecomer is told in German, with real plurals', async () => {
    const { c } = await tableWithTwo('de');
    await c.session.run('as alice !click Starten');
    await c.session.run('as carl /poker hinsetzen buyin:300');
    expect(c.take()).toContain('🪑 @carl nimmt mit 300 Chips Platz und spielt ab der nächsten Hand mit.');
    await c.session.run('as dave /poker hinsetzen buyin:400');
    expect(c.take()).toContain('@dave 400 Chips · spielt ab der nächsten Hand mit');
  });
});
