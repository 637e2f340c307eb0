import { beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_GUILD_ID } from '../../src/console/consoleSession.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('flag_words');

describe('a flag setting in German', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a German admin THEN wert:aus and wert:an switch a flag, shown as aus and an, and a wrong word names both', async () => {
    const c = makeConsole(t);
    await c.session.run('!locale de');
    c.take();

    await c.session.run('as admin /einstellungen setzen schlüssel:place_enabled wert:aus');
    expect(c.take()).toContain(
      'place_enabled ist jetzt aus (vorher an). Damit gilt nicht mehr: Mitglieder können Pixel setzen.',
    );
    expect(await c.deps.runtimeConfig.get('place_enabled')).toBe(false);

    await c.session.run('as admin /einstellungen setzen schlüssel:place_enabled wert:an');
    expect(c.take()).toContain(
      'place_enabled ist jetzt an (vorher aus). Damit gilt: Mitglieder können Pixel setzen.',
    );
    expect(await c.deps.runtimeConfig.get('place_enabled')).toBe(true);

    await c.session.run('as admin /einstellungen setzen schlüssel:place_enabled wert:vielleicht');
    expect(c.take()).toContain('muss an oder aus sein');
    expect(await c.deps.runtimeConfig.get('place_enabled')).toBe(true);
  });

  it('GIVEN an English admin switching a flag off THEN the reply does not claim its description still holds', async () => {
    const c = makeConsole(t);
    await c.session.run('as admin /settings set key:place_enabled value:off');
    const reply = c.take();
    expect(reply).toContain(
      'place_enabled is now off (was on). So this no longer holds: Members can paint pixels.',
    );
    expect(reply).not.toContain('(Members can paint pixels): on → off');
  });

  it('GIVEN a channel setting shown as aus THEN a German admin can switch it off with wert:aus, and a wrong word names aus', async () => {
    const c = makeConsole(t);
    await c.session.run('!locale de');
    await c.session.run('as admin /einstellungen setzen schlüssel:hunt_channel wert:#jagd');
    expect(await c.deps.runtimeConfig.get('hunt_channel', CONSOLE_GUILD_ID)).not.toBeNull();
    c.take();
    await c.session.run('as admin /einstellungen setzen schlüssel:hunt_channel wert:Aus');
    expect(c.take()).toContain('hunt_channel');
    expect(await c.deps.runtimeConfig.get('hunt_channel', CONSOLE_GUILD_ID)).toBeNull();
    await c.session.run('as admin /einstellungen setzen schlüssel:hunt_channel wert:nirgends');
    expect(c.take()).toContain('muss ein Kanal (#name), dessen ID oder aus sein');
  });
});
