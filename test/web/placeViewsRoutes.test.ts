import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDatabase, databaseFingerprint, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('web_place_views');
const ANA = '897700000000000011';

let web: Awaited<ReturnType<typeof startWeb>>;
let ops = 0;

const paint = (x: number, y: number, times = 1) =>
  (async () => {
    for (let i = 0; i < times; i++) {
      await web.deps.services.place.place({ opId: `v${++ops}`, userId: ANA, x, y, color: (i % 30) + 1 });
    }
  })();
const bytes = (base64: string) => Buffer.from(base64, 'base64');
/** The heat byte of pixel (x, y): 0 not painted in the span, else level + 1. */
const heatAt = (answer: Record<string, unknown>, x: number, y: number) =>
  bytes(String(answer.pixels))[y * Number(answer.width) + x];
/** Whether the painted bitset marks pixel (x, y). */
const paintedAt = (answer: Record<string, unknown>, x: number, y: number) => {
  const i = y * Number(answer.width) + x;
  return ((bytes(String(answer.pixels))[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
};

describe('the heatmap and the never-painted map as public data', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t);
    await web.fund(ANA, 10_000);
  });
  afterEach(() => web.close());

  it('GIVEN pixels painted once, twice and four times THEN the heatmap gives each its level, the last hour and the last day, and forgets them after the span', async () => {
    await paint(1, 1);
    await paint(2, 2, 2);
    await paint(3, 3, 4);
    const hour = await web.request('GET', '/api/public/place/heat?span=1h');
    expect(hour.status).toBe(200);
    expect(hour.headers.get('cache-control')).toBe('public, max-age=5');
    expect(hour.json).toMatchObject({ width: 256, height: 256, span: '1h', placements: 7, revision: 7 });
    expect(hour.json.colors).toHaveLength(6);
    expect(bytes(hour.json.pixels)).toHaveLength(256 * 256);
    expect([
      heatAt(hour.json, 1, 1),
      heatAt(hour.json, 2, 2),
      heatAt(hour.json, 3, 3),
      heatAt(hour.json, 0, 0),
    ]).toEqual([1, 2, 3, 0]);
    expect([...bytes(hour.json.pixels)].filter((b) => b > 0)).toHaveLength(3);

    // Two hours later: nothing in the last hour, all of it in the last day.
    web.clock.advance(2 * 60 * 60_000);
    await paint(4, 4);
    const later = await web.request('GET', '/api/public/place/heat?span=1h');
    expect([later.json.placements, heatAt(later.json, 3, 3), heatAt(later.json, 4, 4)]).toEqual([1, 0, 1]);
    const day = await web.request('GET', '/api/public/place/heat?span=24h');
    expect([day.json.placements, heatAt(day.json, 3, 3), heatAt(day.json, 4, 4)]).toEqual([8, 3, 1]);
  });

  it('GIVEN a heatmap just served THEN a placement shows in it once its few seconds of caching are over', async () => {
    await paint(1, 1);
    const first = await web.request('GET', '/api/public/place/heat?span=1h');
    await paint(1, 1);
    const cached = await web.request('GET', '/api/public/place/heat?span=1h');
    expect([cached.json.placements, heatAt(cached.json, 1, 1)]).toEqual([1, 1]);
    expect(cached.json).toEqual(first.json);
    web.clock.advance(5_000);
    const fresh = await web.request('GET', '/api/public/place/heat?span=1h');
    expect([fresh.json.placements, heatAt(fresh.json, 1, 1)]).toEqual([2, 2]);
  });

  it('GIVEN painted pixels THEN the painted bitset marks exactly them, and the rest are never painted', async () => {
    const empty = await web.request('GET', '/api/public/place/painted');
    expect(empty.status).toBe(200);
    expect(empty.json).toMatchObject({ width: 256, height: 256, painted: 0, virgin_color: '#00E676' });
    expect(bytes(empty.json.pixels)).toHaveLength((256 * 256) / 8);

    await paint(0, 0);
    await paint(9, 0);
    await paint(255, 255, 2);
    web.clock.advance(5_000);
    const answer = await web.request('GET', '/api/public/place/painted');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=5');
    expect(answer.json).toMatchObject({ painted: 3, revision: 4 });
    expect([
      paintedAt(answer.json, 0, 0),
      paintedAt(answer.json, 9, 0),
      paintedAt(answer.json, 255, 255),
      paintedAt(answer.json, 1, 0),
      paintedAt(answer.json, 8, 0),
      paintedAt(answer.json, 254, 255),
    ]).toEqual([true, true, true, false, false, false]);
  });

  it('GIVEN a span that is not 1h or 24h, or a parameter the routes do not take THEN the answer is BAD_REQUEST and nothing is written', async () => {
    await paint(1, 1);
    const before = await databaseFingerprint(t.db);
    for (const path of [
      '/api/public/place/heat',
      '/api/public/place/heat?span=2h',
      '/api/public/place/heat?span=1h&span=24h',
      '/api/public/place/heat?span=1h&x=1',
      '/api/public/place/painted?x=1',
    ]) {
      const answer = await web.request('GET', path);
      expect([path, answer.status, answer.json.error.code]).toEqual([path, 400, 'BAD_REQUEST']);
    }
    expect((await web.request('GET', '/api/public/place/heat?span=2h')).json.error.message).toBe(
      'span: one of 1h, 24h',
    );
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});
