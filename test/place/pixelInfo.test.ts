import { beforeEach, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('place_pixel_info');

describe('/place info', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a coordinate beyond the canvas THEN it says so with the bounds, in English and German, not "never painted"', async () => {
    const c = makeConsole(t);
    const { width, height } = await c.deps.services.place.size();
    await c.session.run(`/place info x:1 y:${height + 10}`);
    const english = c.take();
    expect(english).toContain(
      `(1, ${height + 10}) is outside the canvas: x goes from 0 to ${width - 1}, y from 0 to ${height - 1}.`,
    );
    expect(english).not.toContain('never been painted');

    await c.session.run('!locale de');
    c.take();
    await c.session.run(`/place info x:1 y:${height + 10}`);
    expect(c.take()).toContain(
      `(1, ${height + 10}) liegt außerhalb der Leinwand: x geht von 0 bis ${width - 1}, y von 0 bis ${height - 1}.`,
    );

    // Inside the canvas, a pixel nobody painted still says so.
    await c.session.run('/place info x:1 y:1');
    expect(c.take()).toContain('(1, 1) wurde noch nie gemalt.');
  });
});
