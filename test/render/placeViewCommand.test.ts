import { beforeEach, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('place_view_command');

describe('/place view', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t);
  });

  it('GIVEN zoom without x and y THEN it magnifies around the canvas centre, in English and German', async () => {
    expect(await c.session.run('/place view zoom:4')).toBe('ok');
    const size = (await c.deps.services.place.board()).width;
    const centre = Math.floor(size / 2);
    expect(c.take()).toContain(`4× around (${centre}, ${centre}) · version 0`);
    await c.session.run('!locale de');
    expect(await c.session.run('/place ansicht zoom:8 x:3 y:4')).toBe('ok');
    expect(c.take()).toContain('8-fach um (3, 4) · Stand 0');
  });

  it('GIVEN no options THEN the whole canvas is shown with its version', async () => {
    expect(await c.session.run('/place view')).toBe('ok');
    expect(c.take()).toMatch(/Neural Place · version 0 · \d+×\d+/);
  });
});
