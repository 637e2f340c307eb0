import { createCanvas, loadImage } from 'canvas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rgb } from '../../utils/place/palette.js';
import { clearDatabase, databaseFingerprint, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('web_place_templates');
const ANA = '897800000000000011';
const FACTION_ROLE = '897800000000000090';
const ALERT_CHANNEL = '897800000000000091';
const RED = 2;
const BLUE = 13;

let web: Awaited<ReturnType<typeof startWeb>>;

/**
 * A 4×3 artwork: the top row red, the middle row blue, the bottom row transparent but for its
 * last pixel, which is red: 9 pixels to paint.
 */
function artwork() {
  const [width, height] = [4, 3];
  const data = new Uint8ClampedArray(width * height * 4);
  const put = (x: number, y: number, color: number) => data.set([...rgb(color), 255], (y * width + x) * 4);
  for (let x = 0; x < width; x++) {
    put(x, 0, RED);
    put(x, 1, BLUE);
  }
  put(3, 2, RED);
  return { width, height, data };
}

const addTemplate = (id: string, name: string, x: number, y: number) =>
  web.deps.services.place.templates.add({
    id,
    name,
    x,
    y,
    image: artwork(),
    roleId: FACTION_ROLE,
    channelId: ALERT_CHANNEL,
    guildId: null,
    locale: 'en',
    by: ANA,
  });

/** A PNG's pixels as node-canvas decodes it: size and the RGBA of each pixel. */
async function decode(png: Buffer) {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  const { data } = g.getImageData(0, 0, image.width, image.height);
  const at = (x: number, y: number) => [
    ...data.slice((y * image.width + x) * 4, (y * image.width + x) * 4 + 4),
  ];
  return { width: image.width, height: image.height, at };
}

describe("the canvas's templates as public data", () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t);
    await web.fund(ANA, 10_000);
  });
  afterEach(() => web.close());

  it('GIVEN a template and three of its pixels painted right THEN the list gives its name, place, size and progress, and no member, role or channel', async () => {
    await addTemplate('1300000000000000001', 'Blue Fox', 10, 20);
    await web.deps.services.place.place({ opId: 'tpl:1', userId: ANA, x: 10, y: 20, color: RED });
    await web.deps.services.place.place({ opId: 'tpl:2', userId: ANA, x: 11, y: 21, color: BLUE });
    await web.deps.services.place.place({ opId: 'tpl:3', userId: ANA, x: 13, y: 22, color: RED });
    // Painted, but not the colour the template wants.
    await web.deps.services.place.place({ opId: 'tpl:4', userId: ANA, x: 12, y: 20, color: BLUE });

    const answer = await web.request('GET', '/api/public/place/templates');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=5');
    expect(answer.json).toEqual({
      revision: 4,
      templates: [
        {
          id: '1300000000000000001',
          name: 'Blue Fox',
          x: 10,
          y: 20,
          width: 4,
          height: 3,
          progress: { total: 9, right: 3, percent: 33.3 },
        },
      ],
    });
    for (const secret of [ANA, FACTION_ROLE, ALERT_CHANNEL]) expect(answer.text).not.toContain(secret);
  });

  it('GIVEN a list just served THEN a placement shows in its progress once its few seconds of caching are over', async () => {
    await addTemplate('1300000000000000002', 'Crest', 0, 0);
    const first = await web.request('GET', '/api/public/place/templates');
    expect(first.json.templates[0].progress).toEqual({ total: 9, right: 0, percent: 0 });
    await web.deps.services.place.place({ opId: 'tpl:c1', userId: ANA, x: 0, y: 0, color: RED });
    expect((await web.request('GET', '/api/public/place/templates')).json).toEqual(first.json);
    web.clock.advance(5_000);
    const fresh = await web.request('GET', '/api/public/place/templates');
    expect(fresh.json.templates[0].progress).toEqual({ total: 9, right: 1, percent: 11.1 });
  });

  it('GIVEN a template THEN its artwork is a PNG of its size, in its palette colours, transparent where the artwork is', async () => {
    const added = await addTemplate('1300000000000000003', 'Crest', 30, 40);
    const list = await web.request('GET', '/api/public/place/templates');
    const response = await fetch(
      `${web.url}/api/public/place/templates/${list.json.templates[0].id}/art.png`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    const png = await decode(Buffer.from(await response.arrayBuffer()));
    expect([png.width, png.height]).toEqual([added.width, added.height]);
    expect(png.at(0, 0)).toEqual([...rgb(RED), 255]);
    expect(png.at(2, 1)).toEqual([...rgb(BLUE), 255]);
    expect(png.at(3, 2)).toEqual([...rgb(RED), 255]);
    // The transparent part stays transparent: the canvas shows through.
    expect(png.at(0, 2)[3]).toBe(0);
    expect(png.at(2, 2)[3]).toBe(0);

    // Asked again (the server keeps the rendered picture): the same bytes.
    const again = await fetch(`${web.url}/api/public/place/templates/1300000000000000003/art.png`);
    expect((await decode(Buffer.from(await again.arrayBuffer()))).at(2, 1)).toEqual([...rgb(BLUE), 255]);
  });

  it('GIVEN an unknown or removed template, a malformed id or a parameter the routes do not take THEN the answer is the documented refusal and nothing is written', async () => {
    await addTemplate('1300000000000000004', 'Gone', 0, 0);
    await web.request('GET', '/api/public/place/templates/1300000000000000004/art.png');
    await web.deps.services.place.templates.remove('Gone', { id: ANA, mayManage: false });
    const before = await databaseFingerprint(t.db);
    for (const [path, status, code] of [
      ['/api/public/place/templates/1300000000000000004/art.png', 404, 'NOT_FOUND'],
      ['/api/public/place/templates/9999/art.png', 404, 'NOT_FOUND'],
      ['/api/public/place/templates/not%20an%20id/art.png', 400, 'BAD_REQUEST'],
      ['/api/public/place/templates?x=1', 400, 'BAD_REQUEST'],
      ['/api/public/place/templates/9999/art.png?size=2', 400, 'BAD_REQUEST'],
    ] as const) {
      const answer = await web.request('GET', path);
      expect([path, answer.status, answer.json?.error?.code]).toEqual([path, status, code]);
    }
    expect((await web.request('GET', '/api/public/place/templates/9999/art.png')).json.error.message).toBe(
      'No template 9999.',
    );
    expect((await web.request('GET', '/api/public/place/templates')).json.templates).toEqual([]);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});
