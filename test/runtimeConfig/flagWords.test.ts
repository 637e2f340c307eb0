import { beforeEach, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('flag_words');

describe('a flag setting in German', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a German admin THEN wert:aus and wert:an switch a flag, shown as aus and an, and a wrong word names both', async () => {
    const c = makeConsole(t);
    await c.session.run('!locale de');
    c.take();

    await c.session.run('as admin /admin einstellungen setzen schlüssel:place_enabled wert:aus');
    expect(c.take()).toContain('place_enabled (Mitglieder können Pixel setzen): an → aus.');
    expect(await c.deps.runtimeConfig.get('place_enabled')).toBe(false);

    await c.session.run('as admin /admin einstellungen setzen schlüssel:place_enabled wert:an');
    expect(c.take()).toContain('place_enabled (Mitglieder können Pixel setzen): aus → an.');
    expect(await c.deps.runtimeConfig.get('place_enabled')).toBe(true);

    await c.session.run('as admin /admin einstellungen setzen schlüssel:place_enabled wert:vielleicht');
    expect(c.take()).toContain('muss an oder aus sein');
    expect(await c.deps.runtimeConfig.get('place_enabled')).toBe(true);
  });
});
