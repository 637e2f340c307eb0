import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('web_protected_areas');
const [ANN, BEN] = ['896100000000000001', '896100000000000002'];
const ARTISTS = '896100000000000555';
let web: Awaited<ReturnType<typeof startWeb>>;
let keys = 0;

const pixel = (cookie: string, x: number, y: number) =>
  web.request('POST', '/api/place/pixel', {
    cookie,
    body: { x, y, color_index: 3 },
    headers: { 'idempotency-key': `area-key-${++keys}` },
  });

describe('protected areas over HTTP', () => {
  beforeAll(async () => {
    web = await startWeb(t);
    const areas = web.deps.services.place.areas;
    await areas.protect({
      id: 'a1',
      name: 'Logo',
      x1: 4,
      y1: 4,
      x2: 6,
      y2: 6,
      roleId: null,
      by: web.adminId,
    });
    await areas.protect({
      id: 'a2',
      name: 'Mural',
      x1: 10,
      y1: 10,
      x2: 12,
      y2: 11,
      roleId: ARTISTS,
      by: web.adminId,
    });
  });
  afterAll(() => web?.close());

  it('GIVEN two areas THEN anyone reads their names and rectangles, never their roles', async () => {
    const answer = await web.request('GET', '/api/public/place/areas');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      areas: [
        { name: 'Logo', x1: 4, y1: 4, x2: 6, y2: 6 },
        { name: 'Mural', x1: 10, y1: 10, x2: 12, y2: 11 },
      ],
    });
    expect(JSON.stringify(answer.json)).not.toContain(ARTISTS);
  });

  it('GIVEN a member WHEN they paint a protected pixel THEN 403 PIXEL_PROTECTED names the area and nothing is charged', async () => {
    await web.fund(ANN, 1_000);
    const ann = await web.signIn(ANN, 'ann');
    const refused = await pixel(ann, 6, 4);
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: 'PIXEL_PROTECTED' });
    expect(refused.json.error.message).toContain('Logo');
    expect(await web.deps.services.place.wallet(ANN)).toMatchObject({ balance: 1_000_000, placements: 0 });
    expect((await pixel(ann, 7, 4)).status).toBe(200);
  });

  it('GIVEN a session made with the area’s role WHEN its member paints there THEN it is placed; without the role it is refused', async () => {
    await web.fund(BEN, 1_000);
    const withRole = await web.signIn(BEN, 'ben', [ARTISTS]);
    expect((await pixel(withRole, 12, 11)).status).toBe(200);
    const without = await web.signIn(BEN, 'ben');
    expect((await pixel(without, 10, 10)).json.error).toMatchObject({ code: 'PIXEL_PROTECTED' });
    // A moderator paints anywhere.
    await web.fund(web.adminId, 1_000);
    const admin = await web.signIn(web.adminId, 'admin');
    expect((await pixel(admin, 5, 5)).status).toBe(200);
  });
});
