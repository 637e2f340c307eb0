import type { BotDeps } from '../../src/interactions/types.js';
import { parseColor, rgb } from '../../utils/place/palette.js';
import type { FakeAttachment } from './fakeAttachments.js';
import type { FakeDiscord, FakeUser } from './fakeDiscord.js';

/** The canvas's red: what the kit's templates are drawn in. */
export const RED = parseColor('red') as number;

/** A solid `width`×`height` image of one palette colour (alpha 255 unless told), as decoded. */
export function solidImage(width: number, height: number, color = RED, alpha = 255) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...rgb(color), alpha], i * 4);
  return { width, height, data };
}

let paints = 0;

/** One placement by `userId`, with an operation id of its own. */
export function paint(deps: BotDeps, userId: string, x: number, y: number, color: number) {
  paints += 1;
  return deps.services.place.place({ opId: `kit-paint:${paints}`, userId, x, y, color });
}

/** Paints a 5×4 template at (x, y) red, one pixel after another, as `builder`. */
export async function buildSolid(deps: BotDeps, builder: string, x: number, y: number): Promise<void> {
  for (let dy = 0; dy < 4; dy++)
    for (let dx = 0; dx < 5; dx++) await paint(deps, builder, x + dx, y + dy, RED);
}

/** `/place template add` through the fake Discord; the replies after the deferral. */
export async function addThroughDiscord(
  fake: FakeDiscord,
  who: FakeUser,
  options: { name: string; x: number; y: number; faction: string },
  file: FakeAttachment,
) {
  const messages = await fake.waitFor(
    fake.command(who, 'place', ['template', 'add'], options, [], { image: file }),
  );
  return messages.filter((m) => m.via !== 'deferred');
}
