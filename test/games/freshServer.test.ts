import { beforeEach, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('games_fresh_server');

describe('house games on a fresh server', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN an empty vault THEN a bet is refused with what is missing and the command an admin runs, in English and German; once funded it plays', async () => {
    const c = makeConsole(t);
    await c.session.run('as admin /admin cookies grant user:you amount:100');
    c.take();
    expect(await c.deps.services.vault.status()).toMatchObject({ balance: 0 });

    await c.session.run('/games coinflip bet:10 side:heads');
    expect(c.take()).toContain(
      'The house vault cannot cover any bet on this game right now (you bet 10 🍪): it needs Cookies first, and an admin adds them with /admin vault fund amount:…. Nothing moved.',
    );
    await c.session.run('!locale de');
    c.take();
    await c.session.run('/games coinflip bet:10 side:heads');
    expect(c.take()).toContain(
      'und die legt ein Admin mit /admin tresor einlegen anzahl:… hinein. Es wurden keine Kekse bewegt.',
    );
    expect(await c.deps.services.cookies.balance(c.identities.get('you').id)).toBe(100);

    await c.session.run('as admin /admin vault fund amount:100000');
    c.take();
    await c.session.run('/games coinflip bet:10 side:heads');
    expect(c.take()).toContain('🪙');
  });
});
