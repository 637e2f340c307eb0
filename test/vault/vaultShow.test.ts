import { beforeEach, describe, expect, it } from 'vitest';
import type { RoundDoc } from '../../utils/games/roundStore.js';
import { vaultFlows } from '../../utils/vault/flows.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('vault_show');

const en = new Intl.NumberFormat('en');
const de = new Intl.NumberFormat('de');
const signed = (n: number, f: Intl.NumberFormat) =>
  `${n > 0 ? '+' : n < 0 ? '−' : '±'}${f.format(Math.abs(n))} 🍪`;

describe('/vault show', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN members who staked and were paid through real rounds THEN the house games line says exactly what they staked and were paid, in English and German', async () => {
    const c = makeConsole(t);
    for (const line of [
      'as admin /admin vault fund amount:200000',
      'as admin /admin cookies grant user:you amount:2000',
      'as admin /admin cookies grant user:bob amount:2000',
      '/games coinflip bet:40 side:heads',
      '/games coinflip bet:50 side:tails',
      'as bob /games dice bet:30 target:60',
      'as bob /games slots bet:20',
      '/games blackjack bet:30',
    ])
      expect(await c.session.run(line)).toBe('ok');
    // A natural settles at once; any other hand stands.
    const hand = await t.db.collection<RoundDoc>('games_rounds').findOne({ game: 'blackjack' });
    if (hand?.status === 'playing') expect(await c.session.run('!click Stand')).toBe('ok');
    const rounds = await t.db.collection<RoundDoc>('games_rounds').find({}).toArray();
    expect(rounds.map((r) => r.status)).toEqual(Array(5).fill('settled'));
    const staked = rounds.reduce((sum, r) => sum + (r.stake ?? 0), 0);
    const paid = rounds.reduce((sum, r) => sum + (r.payout ?? 0), 0);
    expect(staked).toBeGreaterThanOrEqual(170);
    c.take();

    await c.session.run('/vault show');
    expect(c.take()).toContain(
      `House games: stakes ${en.format(staked)} 🍪, payouts ${en.format(paid)} 🍪 (vault ${signed(staked - paid, en)})`,
    );
    await c.session.run('!locale de');
    await c.session.run('/tresor anzeigen');
    expect(c.take()).toContain(
      `Hausspiele: Einsätze ${de.format(staked)} 🍪, Auszahlungen ${de.format(paid)} 🍪 (Tresor ${signed(staked - paid, de)})`,
    );
  });

  it('GIVEN a heist that was caught THEN the heists line says what the crew staked and that nothing was paid', async () => {
    const c = makeConsole(t);
    for (const line of [
      'as admin /admin vault fund amount:200000',
      'as admin /admin cookies grant user:you amount:1000',
      'as admin /admin cookies grant user:bob amount:1000',
      'as admin /settings set key:vault.heist_base_chance_pct value:0',
      'as admin /settings set key:vault.heist_max_chance_pct value:0',
      '/vault heist stake:100',
      'as bob !click Join the crew',
      '!wait 2m',
    ])
      expect(await c.session.run(line)).toBe('ok');
    c.take();
    await c.session.run('/vault show');
    const shown = c.take();
    expect(shown).toContain('Heists: stakes 200 🍪, payouts 0 🍪 (vault +200 🍪)');
    expect(shown).toContain('Funding: in 200,000 🍪, out 0 🍪 (+200,000 🍪)');
    expect(shown).not.toContain('House games:');
  });

  it('GIVEN a round whose stake was refunded and the vault share it reserved and got back THEN neither counts as money in or out', () => {
    const total = (count: number, into: number, out: number) => ({ count, in: into, out });
    const flows = vaultFlows({
      members: new Map([
        ['games.stake', total(2, 0, 150)],
        ['games.refund', total(1, 100, 0)],
        ['games.payout', total(1, 98, 0)],
      ]),
      house: new Map([
        ['games.hold', total(2, 0, 1_900)],
        ['games.return', total(2, 1_852, 0)],
        ['vault.fund', total(1, 10_000, 0)],
      ]),
    });
    expect(flows).toEqual([
      { group: 'games', in: 50, out: 98, count: 2 },
      { group: 'funding', in: 10_000, out: 0, count: 1 },
    ]);
  });
});
