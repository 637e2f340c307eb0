import { createCanvas } from 'canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRIEF_QUIET_MS } from '../../utils/place/templates.js';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot, withPlacePoints } from '../support/discordHarness.js';
import type { FakeAttachment } from '../support/fakeAttachments.js';
import {
  buttonId,
  CHANNEL_ID,
  FakeDiscord,
  type FakeUser,
  type VisibleMessage,
} from '../support/fakeDiscord.js';
import { addThroughDiscord } from '../support/templateKit.js';

const t = useTestDatabase('discord_place_templates');
const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };
const KNIGHTS = '900000000000000661';
const BUILDERS = '900000000000000662';

/** A PNG of rows of cells: `R` red, `B` blue, `.` transparent. */
function png(rows: string[], filename = 'art.png'): FakeAttachment {
  const canvas = createCanvas(rows[0]?.length ?? 0, rows.length);
  const g = canvas.getContext('2d');
  rows.forEach((row, y) => {
    [...row].forEach((cell, x) => {
      if (cell === '.') return;
      g.fillStyle = cell === 'R' ? '#FF4500' : '#3690EA';
      g.fillRect(x, y, 1, 1);
    });
  });
  return {
    filename,
    data: canvas.toBuffer('image/png'),
    contentType: 'image/png',
    width: canvas.width,
    height: canvas.height,
  };
}

describe('templates through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    fake.addRole({ id: KNIGHTS, name: 'knights' });
    fake.addRole({ id: BUILDERS, name: 'builders' });
    harness = await startFakeBot(fake, t);
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  const add = (who: FakeUser, name: string, x: number, y: number, file: FakeAttachment) =>
    addThroughDiscord(fake, who, { name, x, y, faction: KNIGHTS }, file);

  it('GIVEN a moderator registers a template WHEN a knight asks what to paint and a stranger paints over it THEN they see the nearest pixels and the faction gets one alert with before and after', async () => {
    const [made] = await add(admin, 'Shield', 10, 10, png(['RRB', 'R.R']));
    expect(made?.ephemeral).toBe(false);
    expect(made?.content?.split('\n')).toEqual([
      `🗺️ Template registered: **Shield** at (10, 10), 3×2, faction <@&${KNIGHTS}>. Grief alerts go to <#${CHANNEL_ID}>.`,
      'Members of the faction see what to paint next with `/place template next name:Shield`.',
    ]);
    expect(made?.files.map((f) => f.name)).toEqual(['template.png']);

    const knight = await withPlacePoints(harness, { ...freshMember('kay'), roles: [KNIGHTS] });
    await fake.waitFor(fake.command(knight, 'place', ['pixel'], { x: 11, y: 10, color: 'red' }));
    const [next] = await fake.waitFor(fake.command(knight, 'place', ['template', 'next'], {}));
    expect(next?.ephemeral).toBe(true);
    expect(next?.content?.split('\n')).toEqual([
      '**Template Shield** · 1 of 5 pixels right (20%)',
      'Nearest to your last pixel at (11, 10):',
      '1. (10, 10): **red** (now white) · `/place pixel x:10 y:10 color:red`',
      '2. (12, 10): **blue** (now white) · `/place pixel x:12 y:10 color:blue`',
      '3. (10, 11): **red** (now white) · `/place pixel x:10 y:11 color:red`',
      '4. (12, 11): **red** (now white) · `/place pixel x:12 y:11 color:red`',
    ]);

    const stranger = await withPlacePoints(harness, freshMember('sid'));
    await fake.waitFor(fake.command(stranger, 'place', ['pixel'], { x: 11, y: 10, color: 'white' }));
    await fake.waitFor(fake.command(stranger, 'place', ['pixel'], { x: 11, y: 10, color: 'white' }));
    harness.clock.advance(3 * GRIEF_QUIET_MS);
    await harness.deps.scheduler.runDue();
    await harness.deps.scheduler.runDue();
    const alerts = (fake.channelPosts.get(CHANNEL_ID) ?? []).filter((m) => m.content?.startsWith('⚠️'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.content).toContain(`⚠️ **Shield** (<@&${KNIGHTS}>) was painted over: 1 placement.`);
    expect(alerts[0]?.content).toContain(`By: <@${stranger.id}> (1)`);
    expect(alerts[0]?.files.map((f) => f.name)).toEqual(['before.png', 'after.png']);
  });

  it('GIVEN the nearest wrong pixel WHEN the knight presses its Paint button twice THEN it is painted once, paid once; a stranger may not press it, and a pixel fixed meanwhile costs nothing', async () => {
    await add(admin, 'Banner', 40, 40, png(['RB']));
    const knight = await withPlacePoints(harness, { ...freshMember('ike'), roles: [KNIGHTS] });
    const [next] = await fake.waitFor(
      fake.command(knight, 'place', ['template', 'next'], { name: 'Banner' }),
    );
    expect(next?.components.flatMap((row) => row.components.map((c) => c.label))).toEqual([
      'Paint (41, 40) blue',
    ]);
    const stranger = await withPlacePoints(harness, freshMember('sol'));
    const [refused] = await fake.waitFor(
      fake.click(stranger, next as VisibleMessage, buttonId(next, 'Paint (41, 40) blue')),
    );
    expect(refused?.content).toBe(
      `❌ This button belongs to <@${knight.id}>. Run the command yourself to get your own.`,
    );
    const [painted] = await fake.waitFor(
      fake.click(knight, next as VisibleMessage, buttonId(next, 'Paint (41, 40) blue')),
    );
    expect(painted?.content).toMatch(/^🎨 Painted \(41, 40\) \*\*blue \(#3690EA\)\*\* for 100 points/);
    const [again] = await fake.waitFor(
      fake.click(knight, next as VisibleMessage, buttonId(next, 'Paint (41, 40) blue')),
    );
    expect(again?.content).toMatch(
      /^🎨 Already done: \(41, 40\) is \*\*blue \(#3690EA\)\*\* \(canvas version \d+\); nothing was charged again\.$/,
    );
    expect(await harness.deps.services.place.wallet(knight.id)).toMatchObject({
      balance: 900_000,
      placements: 1,
    });
    expect((await harness.deps.services.place.pixelInfo(41, 40))?.pixel.color).toBe(13);

    // Next from the knight's pixel: the red one, fixed by someone else before the knight presses.
    const [second] = await fake.waitFor(
      fake.command(knight, 'place', ['template', 'next'], { name: 'Banner' }),
    );
    await fake.waitFor(fake.command(stranger, 'place', ['pixel'], { x: 40, y: 40, color: 'red' }));
    const [fixed] = await fake.waitFor(
      fake.click(knight, second as VisibleMessage, buttonId(second, 'Paint (40, 40) red')),
    );
    expect(fixed?.content).toBe(
      '(40, 40) is **red** already: someone fixed it. Nothing was charged; `/place template next` finds the next one.',
    );
    expect(await harness.deps.services.place.wallet(knight.id)).toMatchObject({ balance: 900_000 });
  });

  it('GIVEN the Paint button WHEN it is pressed twice at once THEN the pixel is painted once and paid once', async () => {
    await add(admin, 'Pennant', 60, 60, png(['B']));
    const knight = await withPlacePoints(harness, { ...freshMember('una'), roles: [KNIGHTS] });
    const [next] = await fake.waitFor(
      fake.command(knight, 'place', ['template', 'next'], { name: 'Pennant' }),
    );
    const id = buttonId(next, 'Paint (60, 60) blue');
    const presses = [
      fake.click(knight, next as VisibleMessage, id),
      fake.click(knight, next as VisibleMessage, id),
    ];
    const replies = (await Promise.all(presses.map((p) => fake.waitFor(p)))).map(([m]) => m?.content ?? '');
    expect(replies.filter((r) => r.startsWith('🎨 Painted (60, 60)'))).toHaveLength(1);
    expect(await harness.deps.services.place.wallet(knight.id)).toMatchObject({
      balance: 900_000,
      placements: 1,
    });
  });

  it('GIVEN a member without the template role WHEN they register one THEN they are refused privately with who may, and nothing is stored', async () => {
    const member = freshMember('max');
    const [refused] = await add(member, 'Mine', 0, 0, png(['R']));
    expect(refused?.ephemeral).toBe(true);
    expect(refused?.content).toBe(
      '❌ Only moderators register templates here. An admin may let a role do it: `/settings set key:place_template_role value:@role`.',
    );
    await fake.waitFor(
      fake.command(admin, 'settings', ['set'], { key: 'place_template_role', value: `<@&${BUILDERS}>` }),
    );
    const [again] = await add(member, 'Mine', 0, 0, png(['R']));
    expect(again?.content).toBe(`❌ Only moderators and members with <@&${BUILDERS}> register templates.`);
    const builder = { ...freshMember('bea'), roles: [BUILDERS] };
    const [made] = await add(builder, 'Mine', 0, 0, png(['R']));
    expect(made?.content).toContain('🗺️ Template registered: **Mine**');
    // Its creator may remove it; a member who neither made it nor holds the role may not.
    const [notYours] = await fake.waitFor(
      fake.command(member, 'place', ['template', 'remove'], { name: 'mine' }),
    );
    expect(notYours?.content).toBe(
      `❌ Only its creator <@${builder.id}>, members with the template role and moderators may remove **Mine**.`,
    );
    const [removed] = await fake.waitFor(
      fake.command(builder, 'place', ['template', 'remove'], { name: 'mine' }),
    );
    expect(removed?.content).toContain('🗺️ Template removed: **Mine**');
  });

  it('GIVEN bad images THEN each is refused privately with the numbers, and no template is stored', async () => {
    const big = createCanvas(600, 20);
    const wide: FakeAttachment = {
      filename: 'wide.png',
      data: big.toBuffer('image/png'),
      contentType: 'image/png',
      width: 600,
      height: 20,
    };
    const cases: [FakeAttachment, number, number, string][] = [
      [
        wide,
        0,
        0,
        '❌ The image is 600×20 pixels; a template is at most 512×512 (one image pixel per canvas pixel).',
      ],
      // Without Discord's width and height, the file's own header is read before anything is decoded.
      [
        {
          filename: 'tall.png',
          data: createCanvas(3, 4_000).toBuffer('image/png'),
          contentType: 'image/png',
        },
        0,
        0,
        '❌ The image is 3×4000 pixels; a template is at most 512×512 (one image pixel per canvas pixel).',
      ],
      [
        { filename: 'notes.txt', data: Buffer.from('not a picture'), contentType: 'text/plain' },
        0,
        0,
        '❌ **notes.txt** is not an image the bot can read: attach a PNG (or a JPEG or GIF).',
      ],
      [
        png(['..', '..'], 'empty.png'),
        0,
        0,
        '❌ The image is transparent throughout: there is nothing to paint.',
      ],
      [
        png(['RR', 'RR']),
        255,
        3,
        '❌ A 2×2 template at (255, 3) reaches past the 256×256 canvas: x may be 0 to 254, y 0 to 254.',
      ],
    ];
    for (const [file, x, y, message] of cases) {
      const [refused] = await add(admin, 'Bad', x, y, file);
      expect(refused?.ephemeral, file.filename).toBe(true);
      expect(refused?.content, file.filename).toBe(message);
    }
    expect((await harness.deps.services.place.templates.list()).map((tpl) => tpl.name)).not.toContain('Bad');
  });
});
