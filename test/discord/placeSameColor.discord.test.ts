import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot, withPlacePoints } from '../support/discordHarness.js';
import { buttonId, FakeDiscord, type FakeUser, type VisibleMessage } from '../support/fakeDiscord.js';

const t = useTestDatabase('discord_place_same_color');

describe('painting a pixel the colour it already has, through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t);
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  const funded = (member: FakeUser) => withPlacePoints(harness, member);

  const wallet = (member: FakeUser) => harness.deps.services.place.wallet(member.id);
  const last = (messages: VisibleMessage[]) => messages.at(-1);

  it('GIVEN a pixel nobody painted WHEN a member paints it white THEN they are warned privately with the cost, and nothing is paid', async () => {
    const mia = await funded(freshMember('mia'));
    const [warning] = await fake.waitFor(
      fake.command(mia, 'place', ['pixel'], { x: 5, y: 6, color: 'white' }),
    );
    expect(warning?.ephemeral).toBe(true);
    expect(warning?.content).toBe(
      '🎨 The pixel (5, 6) is already **white (#FFFFFF)**: painting it again costs 100 points and changes nothing on the canvas. Paint it anyway?',
    );
    expect(warning?.components.flatMap((row) => row.components.map((c) => c.label))).toEqual([
      'Paint anyway',
      'Cancel',
    ]);
    expect(await wallet(mia)).toMatchObject({ balance: 1_000_000, placements: 0 });
    expect(await harness.deps.services.place.pixelInfo(5, 6)).toBeNull();
  });

  it('GIVEN the warning WHEN another member presses Paint anyway THEN they are refused and nobody pays', async () => {
    const mia = await funded(freshMember('mia'));
    const gus = await funded(freshMember('gus'));
    const [warning] = await fake.waitFor(
      fake.command(mia, 'place', ['pixel'], { x: 7, y: 7, color: 'white' }),
    );
    const [refused] = await fake.waitFor(
      fake.click(gus, warning as VisibleMessage, buttonId(warning, 'Paint anyway')),
    );
    expect(refused?.ephemeral).toBe(true);
    expect(refused?.content).toBe(
      `❌ This button belongs to <@${mia.id}>. Run the command yourself to get your own.`,
    );
    expect(await wallet(mia)).toMatchObject({ balance: 1_000_000, placements: 0 });
    expect(await wallet(gus)).toMatchObject({ balance: 1_000_000, placements: 0 });
    expect(await harness.deps.services.place.pixelInfo(7, 7)).toBeNull();
  });

  it('GIVEN the warning WHEN the member presses Paint anyway twice at once THEN the pixel is painted and paid once', async () => {
    const mia = await funded(freshMember('mia'));
    const [warning] = await fake.waitFor(
      fake.command(mia, 'place', ['pixel'], { x: 8, y: 9, color: 'white' }),
    );
    const paint = buttonId(warning, 'Paint anyway');
    const presses = [0, 1].map(() => fake.click(mia, warning as VisibleMessage, paint));
    const replies = (await Promise.all(presses.map((p) => fake.waitFor(p)))).map(last);
    const texts = replies.map((r) => r?.content ?? '').sort();
    expect(texts).toEqual([
      '🎨 Already done: (8, 9) is **white (#FFFFFF)** (canvas version 1); nothing was charged again.',
      '🎨 Painted (8, 9) **white (#FFFFFF)** for 100 points (canvas version 1). You have 900 points left: enough for 9 more pixels.',
    ]);
    expect(replies.every((r) => r?.ephemeral && r.components.length === 0)).toBe(true);
    expect(await wallet(mia)).toMatchObject({ balance: 900_000, placements: 1 });
    expect((await harness.deps.services.place.pixelInfo(8, 9))?.pixel).toMatchObject({
      color: 31,
      owner: mia.id,
    });
    // Pressed again later: still the one placement.
    const [again] = await fake.waitFor(fake.click(mia, warning as VisibleMessage, paint));
    expect(again?.content).toContain('Already done: (8, 9)');
    expect(await wallet(mia)).toMatchObject({ balance: 900_000, placements: 1 });
  });

  it('GIVEN a pixel painted red WHEN the member paints it red again and cancels THEN it says nothing was charged', async () => {
    const mia = await funded(freshMember('mia'));
    const [first] = await fake.waitFor(fake.command(mia, 'place', ['pixel'], { x: 10, y: 10, color: 'red' }));
    expect(first?.content).toContain('🎨 Painted (10, 10) **red (#FF4500)** for 100 points');
    const [warning] = await fake.waitFor(fake.command(mia, 'place', ['pixel'], { x: 10, y: 10, color: '2' }));
    expect(warning?.content).toContain('The pixel (10, 10) is already **red (#FF4500)**');
    const [cancelled] = await fake.waitFor(
      fake.click(mia, warning as VisibleMessage, buttonId(warning, 'Cancel')),
    );
    expect(cancelled?.via).toBe('update');
    expect(cancelled?.content).toBe(
      'Not painted: (10, 10) stays **red (#FF4500)**, and nothing was charged.',
    );
    expect(cancelled?.components).toEqual([]);
    expect(await wallet(mia)).toMatchObject({ balance: 900_000, placements: 1 });
  });

  it('GIVEN a pixel of another colour WHEN the member paints it THEN it is painted at once, with no question', async () => {
    const mia = await funded(freshMember('mia'));
    const [painted] = await fake.waitFor(
      fake.command(mia, 'place', ['pixel'], { x: 11, y: 12, color: 'blue' }),
    );
    expect(painted?.content).toMatch(/^🎨 Painted \(11, 12\) \*\*blue \(#3690EA\)\*\* for 100 points/);
    expect(painted?.components).toEqual([]);
    expect(await wallet(mia)).toMatchObject({ balance: 900_000, placements: 1 });
  });

  it('GIVEN a German member THEN the warning and its buttons are German', async () => {
    const otto = await funded(freshMember('otto', 'de'));
    const [warning] = await fake.waitFor(
      fake.command(otto, 'place', ['pixel'], { x: 13, y: 13, color: 'weiß' }),
    );
    expect(warning?.content).toBe(
      '🎨 Der Pixel (13, 13) ist schon **Weiß (#FFFFFF)**. Noch mal malen kostet 100 Punkte, ändert aber nichts an der Leinwand. Trotzdem malen?',
    );
    const [painted] = await fake.waitFor(
      fake.click(otto, warning as VisibleMessage, buttonId(warning, 'Trotzdem malen')),
    );
    expect(painted?.content).toContain('🎨 (13, 13) in **Weiß (#FFFFFF)** gemalt – 100 Punkte');
    expect(buttonId(warning, 'Abbrechen')).toContain('place.same_color:');
  });
});
