import { createCanvas } from 'canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TEMPLATES } from '../../utils/place/templates.js';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { MAX_CONTENT } from '../support/discordLimits.js';
import { matchRoute } from '../support/discordRoutes.js';
import type { FakeAttachment } from '../support/fakeAttachments.js';
import { CHANNEL_ID, FakeDiscord, type FakeUser } from '../support/fakeDiscord.js';
import { addThroughDiscord } from '../support/templateKit.js';

const t = useTestDatabase('discord_template_attacks');
const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };
const KNIGHTS = '900000000000000771';
/** The canvas of this file: wide enough for a 512×512 template. */
const SIDE = 600;

/** A `width`×`height` PNG, every pixel red (#FF4500) at opacity `alpha`. */
function png(width: number, height: number, alpha = 255, filename = 'art.png'): FakeAttachment {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  const image = g.createImageData(width, height);
  for (let i = 0; i < width * height; i++) image.data.set([255, 69, 0, alpha], i * 4);
  g.putImageData(image, 0, 0);
  return { filename, data: canvas.toBuffer('image/png'), contentType: 'image/png', width, height };
}

/** A 1×1 GIF (one red pixel), as bytes. */
const GIF_BYTES = Buffer.from('R0lGODlhAQABAIAAAP8AAAAAACwAAAAAAQABAAACAkQBADs=', 'base64');

/** A 4×4 JPEG, red. */
function jpegBytes(): Buffer {
  const canvas = createCanvas(4, 4);
  const g = canvas.getContext('2d');
  g.fillStyle = '#FF4500';
  g.fillRect(0, 0, 4, 4);
  return canvas.toBuffer('image/jpeg');
}

/** A name of exactly 32 characters, distinct by its number. */
const longName = (i: number) => `${String(i).padStart(2, '0')}-${'w'.repeat(29)}`;

describe('templates under attack through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    fake.addRole({ id: KNIGHTS, name: 'knights' });
    harness = await startFakeBot(fake, t, {
      env: { DEFAULT_PLACE_WIDTH: String(SIDE), DEFAULT_PLACE_HEIGHT: String(SIDE) },
    });
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  const add = (who: FakeUser, name: string, x: number, y: number, file: FakeAttachment) =>
    addThroughDiscord(fake, who, { name, x, y, faction: KNIGHTS }, file);

  const names = async () => (await harness.deps.services.place.templates.list()).map((tpl) => tpl.name);

  /** Removes every template, as a moderator would. */
  const removeAll = async () => {
    const templates = harness.deps.services.place.templates;
    for (const name of await names()) await templates.remove(name, { id: ADMIN_ID, mayManage: true });
  };

  it('GIVEN an image of exactly 512×512 THEN it is registered; GIVEN one of 513×1 THEN it is refused privately with the numbers, with or without Discord’s size', async () => {
    const [big] = await add(admin, 'Big', 0, 0, png(512, 512));
    expect(big?.content?.split('\n')[0]).toBe(
      `🗺️ Template registered: **Big** at (0, 0), 512×512, faction <@&${KNIGHTS}>. Grief alerts go to <#${CHANNEL_ID}>.`,
    );
    const { width: _w, height: _h, ...headerOnly } = png(513, 1, 255, 'wide.png');
    for (const file of [png(513, 1, 255, 'wide.png'), headerOnly]) {
      const [refused] = await add(admin, 'Wide', 0, 0, file);
      expect(refused?.ephemeral).toBe(true);
      expect(refused?.content).toBe(
        '❌ The image is 513×1 pixels; a template is at most 512×512 (one image pixel per canvas pixel).',
      );
    }
    expect(await names()).toEqual(['Big']);
  });

  it('GIVEN a PNG whose every pixel is alpha 127 THEN it is refused as transparent throughout', async () => {
    const [refused] = await add(admin, 'Ghost', 0, 0, png(8, 8, 127, 'ghost.png'));
    expect(refused?.ephemeral).toBe(true);
    expect(refused?.content).toBe('❌ The image is transparent throughout: there is nothing to paint.');
    expect(await names()).not.toContain('Ghost');
  });

  it('GIVEN files named .png holding GIF or JPEG bytes THEN they are read by what they hold and registered; garbage or a PNG cut in half THEN refused as not an image', async () => {
    const gif: FakeAttachment = {
      filename: 'gif.png',
      data: GIF_BYTES,
      contentType: 'image/png',
      width: 1,
      height: 1,
    };
    const [fromGif] = await add(admin, 'FromGif', 100, 0, gif);
    expect(fromGif?.content).toContain('🗺️ Template registered: **FromGif** at (100, 0), 1×1');
    const jpeg: FakeAttachment = {
      filename: 'jpeg.png',
      data: jpegBytes(),
      contentType: 'image/png',
      width: 4,
      height: 4,
    };
    const [fromJpeg] = await add(admin, 'FromJpeg', 110, 0, jpeg);
    expect(fromJpeg?.content).toContain('🗺️ Template registered: **FromJpeg** at (110, 0), 4×4');

    const whole = png(16, 16).data;
    const bad: FakeAttachment[] = [
      {
        filename: 'garbage.png',
        data: Buffer.from('\x00\x01garbage, not a picture'),
        contentType: 'image/png',
      },
      {
        filename: 'half.png',
        data: whole.subarray(0, Math.floor(whole.length / 2)),
        contentType: 'image/png',
      },
    ];
    for (const file of bad) {
      const [refused] = await add(admin, 'Bad', 120, 0, file);
      expect(refused?.ephemeral, file.filename).toBe(true);
      expect(refused?.content, file.filename).toBe(
        `❌ **${file.filename}** is not an image the bot can read: attach a PNG (or a JPEG or GIF).`,
      );
    }
    expect(await names()).not.toContain('Bad');
  });

  it('GIVEN a template whose right and bottom edges are the canvas’s THEN it is registered; one pixel further THEN refused with where it may go', async () => {
    const [edge] = await add(admin, 'Edge', SIDE - 2, SIDE - 2, png(2, 2));
    expect(edge?.content).toContain(`🗺️ Template registered: **Edge** at (${SIDE - 2}, ${SIDE - 2}), 2×2`);
    const [past] = await add(admin, 'Past', SIDE - 1, 0, png(2, 2));
    expect(past?.content).toBe(
      `❌ A 2×2 template at (${SIDE - 1}, 0) reaches past the ${SIDE}×${SIDE} canvas: x may be 0 to ${SIDE - 2}, y 0 to ${SIDE - 2}.`,
    );
  });

  it('GIVEN x:-1, y:2048 or a 33-character name THEN Discord’s client refuses to send the command, as the option’s min_value, max_value and max_length say', async () => {
    const cases: [string, Record<string, string | number>][] = [
      ['x:-1 (min_value 0)', { name: 'Neg', x: -1, y: 0 }],
      ['y:2048 (max_value 2047)', { name: 'Far', x: 0, y: 2_048 }],
      ['a 33-character name (max_length 32)', { name: 'n'.repeat(33), x: 0, y: 0 }],
    ];
    for (const [what, options] of cases) {
      let token: string | null = null;
      let thrown: unknown = null;
      try {
        token = fake.command(admin, 'place', ['template', 'add'], { ...options, faction: KNIGHTS }, [], {
          image: png(1, 1),
        });
      } catch (error) {
        thrown = error;
      }
      // When the fake let it through, the bot's own answer says what a member would have seen.
      const answered = token
        ? (await fake.waitFor(token)).filter((m) => m.via !== 'deferred').map((m) => m.content)
        : [];
      expect
        .soft(
          String(thrown),
          `${what}: the fake sent it on, and the bot answered ${JSON.stringify(answered)}`,
        )
        .toMatch(/Discord's client cannot send this/);
    }
    expect(await names()).not.toContain('Neg');
    expect(await names()).not.toContain('Far');
  });

  describe(`with ${MAX_TEMPLATES} templates of 32-character names`, () => {
    beforeAll(async () => {
      await removeAll();
      const templates = harness.deps.services.place.templates;
      const image = { width: 1, height: 1, data: new Uint8ClampedArray([255, 69, 0, 255]) };
      for (let i = 0; i < MAX_TEMPLATES; i++) {
        await templates.add({
          id: `900000000000${String(i).padStart(6, '0')}`,
          name: longName(i),
          x: i,
          y: 300,
          image,
          roleId: KNIGHTS,
          channelId: '900000000000000772',
          guildId: null,
          locale: 'en',
          by: ADMIN_ID,
        });
      }
      expect(await names()).toHaveLength(MAX_TEMPLATES);
    });

    it('GIVEN /place template list THEN the reply stays within Discord’s 2,000 characters, lists the oldest, and says how many more there are', async () => {
      const [reply] = await fake.waitFor(fake.command(freshMember('lia'), 'place', ['template', 'list'], {}));
      const content = reply?.content ?? '';
      expect(content.length).toBeLessThanOrEqual(MAX_CONTENT);
      const lines = content.split('\n');
      expect(lines[0]).toBe(`🗺️ ${MAX_TEMPLATES} templates:`);
      const shown = lines.filter((line) => line.startsWith('• '));
      expect(shown.length).toBeGreaterThanOrEqual(10);
      shown.forEach((line, i) => {
        expect(line).toContain(`**${longName(i)}** at (${i}, 300), 1×1`);
      });
      expect(lines.at(-1)).toBe(`… and ${MAX_TEMPLATES - shown.length} more.`);
    });

    it('GIVEN a member typing into name THEN the suggestions are at most 25, each name and value within 100 characters, and a filter narrows them', async () => {
      const member = freshMember('ivo');
      const all = await fake.suggestions(
        fake.autocomplete(member, 'place', ['template', 'show'], { name: '' }, 'name'),
      );
      expect(all).toHaveLength(25);
      // More than 25 match: the runtime keeps the first 25, the oldest.
      expect(all.map((c) => c.name)).toEqual(Array.from({ length: 25 }, (_, i) => longName(i)));
      for (const choice of all) {
        expect(choice.name.length).toBeLessThanOrEqual(100);
        expect(choice.value.length).toBeLessThanOrEqual(100);
      }
      const some = await fake.suggestions(
        fake.autocomplete(member, 'place', ['template', 'show'], { name: '4-W' }, 'name'),
      );
      expect(some.map((c) => c.name)).toEqual([4, 14, 24, 34, 44].map(longName));
    });

    it('GIVEN 26 suggestions THEN the fake refuses them as Discord does (at most 25 choices)', () => {
      const route = matchRoute('POST', '/interactions/1/token-1/callback');
      const choices = (n: number) =>
        Array.from({ length: n }, (_, i) => ({ name: longName(i), value: longName(i) }));
      expect(route?.check?.({ type: 8, data: { choices: choices(25) } }, 0).problems).toEqual([]);
      expect(route?.check?.({ type: 8, data: { choices: choices(26) } }, 0).problems).not.toEqual([]);
    });

    it('GIVEN a member of no faction asking /place template next THEN the refusal naming every template stays within 2,000 characters, in English and in German', async () => {
      for (const locale of ['en-US', 'de']) {
        const [refused] = await fake.waitFor(
          fake.command(freshMember('nia', locale), 'place', ['template', 'next'], {}),
        );
        const content = refused?.content ?? '';
        expect(refused?.ephemeral, locale).toBe(true);
        expect(content.length, locale).toBeLessThanOrEqual(MAX_CONTENT);
        for (let i = 0; i < MAX_TEMPLATES; i++) expect(content, locale).toContain(longName(i));
      }
    });

    it('GIVEN 50 templates WHEN a moderator registers another THEN it is refused with the limit', async () => {
      const [refused] = await add(admin, 'One more', 0, 400, png(1, 1));
      expect(refused?.ephemeral).toBe(true);
      expect(refused?.content).toBe(
        `❌ There are ${MAX_TEMPLATES} templates already, the most there may be: remove one first (\`/place template remove\`).`,
      );
    });
  });
});
