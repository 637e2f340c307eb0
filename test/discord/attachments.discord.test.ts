import { createHash } from 'node:crypto';
import { createCanvas } from 'canvas';
import { ApplicationCommandOptionType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { type AttachmentRef, AttachmentUnreadable } from '../../src/interactions/types.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { type FakeAttachment, FakeDiscord } from '../support/fakeDiscord.js';
import { waitFor } from '../support/waitFor.js';

const t = useTestDatabase('attachments_discord');

/** The most bytes the test command reads of a file. */
const MAX_BYTES = 64 * 1024;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A real PNG of `width` × `height` pixels, as a member would upload one. */
function png(width: number, height: number): FakeAttachment {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#c0392b';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#2980b9';
  g.fillRect(0, 0, Math.ceil(width / 2), Math.ceil(height / 2));
  return {
    filename: 'castle.png',
    data: canvas.toBuffer('image/png'),
    contentType: 'image/png',
    width,
    height,
  };
}

/** A file of `size` bytes that is not an image. */
function blob(size: number): FakeAttachment {
  return { filename: 'big.bin', data: Buffer.alloc(size, 7), contentType: 'application/octet-stream' };
}

describe('attachment options through discord.js and the fake Discord', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;
  /** The file the command saw last, as the invocation carried it. */
  let seen: { ref: AttachmentRef; value: unknown } | null = null;

  const upload = defineCommand({
    name: 'upload',
    description: 'Reads a file',
    access: 'everyone',
    category: 'Test',
    options: [
      {
        type: ApplicationCommandOptionType.Attachment,
        name: 'image',
        description: 'The file',
        required: true,
      },
      { type: ApplicationCommandOptionType.String, name: 'note', description: 'A word' },
    ],
    handler: {
      async run({ deps, invocation }) {
        const ref = invocation.attachments?.image;
        if (!ref) return { content: 'no file came with the command' };
        seen = { ref, value: invocation.options.image };
        try {
          const bytes = await deps.attachments.read(ref, MAX_BYTES);
          return {
            content: `read ${ref.filename} (${ref.contentType}, ${ref.width}×${ref.height} px): ${bytes.length} bytes, sha256 ${sha256(bytes)}`,
          };
        } catch (error) {
          if (error instanceof AttachmentUnreadable) return { content: `unreadable: ${error.reason}` };
          throw error;
        }
      },
    },
  });

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t, { extraCommands: [upload] });
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  it('GIVEN a member attaches a PNG THEN the handler reads exactly its bytes, and knows its name, type and pixels', async () => {
    const file = png(40, 30);
    const token = fake.command(freshMember('ida'), 'upload', [], { note: 'hi' }, [], { image: file });
    const [reply] = await fake.waitFor(token);
    expect(reply?.content).toBe(
      `read castle.png (image/png, 40×30 px): ${file.data.length} bytes, sha256 ${sha256(file.data)}`,
    );
    // The option's value stays what Discord sends: the attachment's id, the file beside it.
    const [download] = fake.attachmentDownloads;
    expect(seen?.value).toBe(download?.id);
    expect(seen?.ref).toMatchObject({ id: download?.id, size: file.data.length });
    expect(download?.state).toBe('complete');
  });

  it('GIVEN a file Discord reports larger than the command reads THEN it is refused as too large, and not downloaded', async () => {
    const before = fake.attachmentDownloads.length;
    const token = fake.command(freshMember('ida'), 'upload', [], {}, [], { image: blob(MAX_BYTES + 1) });
    const [reply] = await fake.waitFor(token);
    expect(reply?.content).toBe('unreadable: too_large');
    expect(fake.attachmentDownloads.length).toBe(before);
  });

  it('GIVEN a file larger than its reported size THEN reading stops at the cap and leaves the rest unsent', async () => {
    const big = blob(8 * 1024 * 1024);
    await fake.waitFor(fake.command(freshMember('ida'), 'upload', [], {}, [], { image: big }));
    const ref = seen?.ref as AttachmentRef;
    const understated = { ...ref, size: 1_000 };
    await expect(harness.deps.attachments.read(understated, MAX_BYTES)).rejects.toMatchObject({
      name: 'AttachmentUnreadable',
      reason: 'too_large',
    });
    const download = await waitFor(
      () => fake.attachmentDownloads.filter((d) => d.id === ref.id && d.state !== 'sending').at(-1),
      { what: 'the download to end' },
    );
    expect(download.state).toBe('cut off');
    expect(download.sent).toBeLessThan(big.data.length);
  });

  it('GIVEN the file is gone from the CDN THEN it cannot be read: unreachable', async () => {
    await fake.waitFor(fake.command(freshMember('ida'), 'upload', [], {}, [], { image: png(2, 2) }));
    const ref = seen?.ref as AttachmentRef;
    const gone = { ...ref, url: ref.url.replace(`/${ref.id}/`, '/1/') };
    await expect(harness.deps.attachments.read(gone, MAX_BYTES)).rejects.toMatchObject({
      reason: 'unreachable',
    });
    await expect(harness.deps.attachments.read(ref, MAX_BYTES)).resolves.toHaveLength(ref.size);
  });

  it("GIVEN what Discord's client never sends THEN the fake refuses to dispatch it", () => {
    const ida = freshMember('ida');
    // An attachment option whose value is no key of resolved.attachments.
    expect(() => fake.command(ida, 'upload', [], { image: '1300000000000000001' })).toThrow(
      /attachment option "image" given as a bare value/,
    );
    // A required file missing.
    expect(() => fake.command(ida, 'upload', [], { note: 'hi' })).toThrow(
      /required attachment option "image" has no file/,
    );
    // A file for an option the definition types otherwise, or does not have.
    expect(() => fake.command(ida, 'upload', [], {}, [], { image: png(1, 1), note: png(1, 1) })).toThrow(
      /option "note" is a String option, not an attachment/,
    );
    expect(() => fake.command(ida, 'cookies', ['balance'], {}, [], { image: png(1, 1) })).toThrow(
      /has no option "image"/,
    );
    expect(() => fake.command(ida, 'nothing', [], {}, [], { image: png(1, 1) })).toThrow(
      /no definition of it is registered/,
    );
    // A file over the server's upload limit (10 MiB without boosts).
    expect(() => fake.command(ida, 'upload', [], {}, [], { image: blob(10 * 1024 * 1024 + 1) })).toThrow(
      /over the upload limit/,
    );
  });
});
