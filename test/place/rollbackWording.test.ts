import { beforeEach, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('place_rollback_wording');

describe('a rollback, as the moderator reads it', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN two pixels of a vandal THEN the preview and the result count them in the plural', async () => {
    const c = makeConsole(t);
    await c.session.run('as admin /admin place grant target:vandal points:500');
    await c.session.run('as vandal /place pixel x:1 y:1 color:red');
    await c.session.run('as vandal /place pixel x:2 y:1 color:red');
    c.take();
    await c.session.run('as admin /admin place rollback user:vandal');
    expect(c.take()).toContain(
      '│ 2 pixels go back to what they were before @vandal painted them (outlined, as they would look). A refund gives @vandal back what they paid for them: 200 points. The history stays: each restored pixel is a new change on the canvas.',
    );
    await c.session.run('as admin !click Roll back');
    expect(c.take()).toContain('↩️ Restored 2 pixels. Refunded: 0 points.');
  });

  it('GIVEN one pixel of a vandal and a German moderator THEN everything is said in the singular, in German', async () => {
    const c = makeConsole(t);
    await c.session.run('!locale de');
    await c.session.run('as admin /admin place gutschreiben ziel:vandal punkte:500');
    await c.session.run('as vandal /place pixel x:1 y:1 farbe:rot');
    c.take();
    await c.session.run('as admin /admin place zurücksetzen mitglied:vandal');
    expect(c.take()).toContain(
      '│ 1 Pixel bekommt seine Farbe von vor @vandal zurück (umrandet, so wie er dann aussieht). Mit Erstattung bekommt @vandal zurück, was der Pixel gekostet hat: 100 Punkte.',
    );
    await c.session.run('as admin !click Zurücksetzen und erstatten');
    expect(c.take()).toContain('↩️ 1 Pixel wiederhergestellt. Erstattet: 100 Punkte.');
    await c.session.run('as admin /admin place zurücksetzen mitglied:nobody');
    expect(c.take()).toContain('Nichts zurückzusetzen: @nobody hat dort keine Pixel gesetzt.');
  });
});
