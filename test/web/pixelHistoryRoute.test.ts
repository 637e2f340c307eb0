import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPseudonym } from '../../src/privacy/pseudonym.js';
import { clearDatabase, databaseFingerprint, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('web_pixel_history');
const ANA = '897500000000000011';
const BO = '897500000000000012';
const CY = '897500000000000013';

let web: Awaited<ReturnType<typeof startWeb>>;

const history = (query: string) => web.request('GET', `/api/public/place/pixel/history?${query}`);

describe("a pixel's last changes on the public page", () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t);
    for (const [id, name] of [
      [ANA, 'ana'],
      [BO, 'bo'],
      [CY, 'cy'],
    ] as const) {
      await web.deps.profiles.touch({ id, name });
      await web.fund(id, 10_000);
    }
  });
  afterEach(() => web.close());

  it('GIVEN three painters on one pixel, one then forgotten THEN anyone reads who, when and which colour before and after, newest first, the forgotten one by pseudonym only', async () => {
    const { services } = web.deps;
    await services.place.place({ opId: 'a1', userId: ANA, x: 7, y: 9, color: 2 });
    await services.place.place({ opId: 'elsewhere', userId: CY, x: 8, y: 9, color: 4 });
    await services.place.place({ opId: 'b1', userId: BO, x: 7, y: 9, color: 5 });
    await services.place.place({ opId: 'c1', userId: CY, x: 7, y: 9, color: 13 });
    await services.privacy.forget(services, BO, 'self', 'en');

    const answer = await history('x=7&y=9');
    expect(answer.status).toBe(200);
    expect(answer.json.changes).toEqual([
      {
        revision: 4,
        kind: 'placement',
        color_index: 13,
        before_color_index: 5,
        owner: CY,
        owner_name: 'cy',
        at: expect.any(String),
        rolled_back: false,
      },
      {
        revision: 3,
        kind: 'placement',
        color_index: 5,
        before_color_index: 2,
        owner: expect.any(String),
        owner_name: null,
        at: expect.any(String),
        rolled_back: false,
      },
      {
        revision: 1,
        kind: 'placement',
        color_index: 2,
        before_color_index: null,
        owner: ANA,
        owner_name: 'ana',
        at: expect.any(String),
        rolled_back: false,
      },
    ]);
    expect(isPseudonym(answer.json.changes[1].owner)).toBe(true);
    expect(answer.text).not.toContain(BO);
    expect(answer.json.changes.every((c: { at: string }) => !Number.isNaN(Date.parse(c.at)))).toBe(true);
  });

  it('GIVEN a pixel painted twelve times THEN the history holds the ten newest, and a pixel never painted has none', async () => {
    for (let i = 0; i < 12; i++) {
      await web.deps.services.place.place({ opId: `p${i}`, userId: ANA, x: 0, y: 255, color: i });
    }
    const answer = await history('x=0&y=255');
    expect(answer.json.changes.map((c: { color_index: number }) => c.color_index)).toEqual([
      11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
    ]);
    expect(answer.json.changes[9].before_color_index).toBe(1);

    const never = await history('x=255&y=0');
    expect([never.status, never.json.changes]).toEqual([200, []]);
  });

  it('GIVEN a rolled back placement THEN the history shows it as rolled back and the rollback as its own change', async () => {
    const { services } = web.deps;
    await services.place.place({ opId: 'a1', userId: ANA, x: 3, y: 3, color: 2 });
    await services.place.place({ opId: 'b1', userId: BO, x: 3, y: 3, color: 27 });
    await services.place.rollbacks.plan({
      id: 'rb',
      adminId: web.adminId,
      target: BO,
      area: { x0: 3, y0: 3, x1: 3, y1: 3 },
    });
    await services.place.rollbacks.apply('rb', false);

    const answer = await history('x=3&y=3');
    expect(answer.json.changes).toMatchObject([
      { kind: 'rollback', color_index: 2, before_color_index: 27, owner: ANA, rolled_back: false },
      { kind: 'placement', color_index: 27, before_color_index: 2, owner: BO, rolled_back: true },
      { kind: 'placement', color_index: 2, before_color_index: null, owner: ANA, rolled_back: false },
    ]);
  });

  it('GIVEN x or y off the canvas or not a whole number THEN the answer is BAD_REQUEST and nothing is written', async () => {
    await web.deps.services.place.place({ opId: 'a1', userId: ANA, x: 1, y: 1, color: 2 });
    const before = await databaseFingerprint(t.db);
    for (const query of ['x=256&y=0', 'x=0&y=256', 'x=-1&y=0', 'x=1.5&y=1', 'x=1', 'y=1', 'x=a&y=1', '']) {
      const answer = await history(query);
      expect([query, answer.status, answer.json.error.code]).toEqual([query, 400, 'BAD_REQUEST']);
    }
    expect((await history('x=256&y=0')).json.error.message).toBe('x: a whole number from 0 to 255');
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});
