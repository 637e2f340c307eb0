import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApplicationCommandOptionType } from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consoleAttachment } from '../../src/console/consoleAttachments.js';
import { ConsoleLineError, convertOptions, parseConsoleLine } from '../../src/console/parseConsoleLine.js';
import { fileAttachmentReader } from '../../src/discord/attachmentReader.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { AttachmentUnreadable } from '../../src/interactions/types.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('console_attachments');

const FILE_OPTION = {
  type: ApplicationCommandOptionType.Attachment,
  name: 'file',
  description: 'The file',
  name_localizations: { de: 'datei' },
  description_localizations: { de: 'Die Datei' },
  required: true,
} as const;

/** A test command that reads the file of its attachment option and says what it read. */
const upload = defineCommand({
  name: 'upload',
  description: 'Reads a file',
  access: 'everyone',
  category: 'Test',
  options: [
    FILE_OPTION,
    { type: ApplicationCommandOptionType.Integer, name: 'max', description: 'The most bytes it reads' },
  ],
  handler: {
    async run({ deps, invocation }) {
      const file = invocation.attachments?.file;
      if (!file) return { content: 'no file came with the command' };
      try {
        const bytes = await deps.attachments.read(file, Number(invocation.options.max ?? 1_000_000));
        const sha = createHash('sha256').update(bytes).digest('hex');
        return {
          content: `read ${file.filename} (${file.contentType}): ${bytes.length} bytes, sha256 ${sha}`,
        };
      } catch (error) {
        if (error instanceof AttachmentUnreadable) return { content: `unreadable: ${error.reason}` };
        throw error;
      }
    },
  },
});

describe('attachment options in the local console', () => {
  const folder = mkdtempSync(join(tmpdir(), 'console-attachments-'));
  const png = join(folder, 'castle.png');
  const bytes = Buffer.from(Array.from({ length: 3_000 }, (_, i) => (i * 7) % 256));
  const sha = createHash('sha256').update(bytes).digest('hex');
  /** What a member types: a path relative to the folder the console runs in. */
  const typed = relative(process.cwd(), png);
  let c: ReturnType<typeof makeConsole>;

  beforeAll(() => writeFileSync(png, bytes));
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t, { extraCommands: [upload] });
  });

  it('GIVEN file:PATH THEN the option carries the file id and the file travels beside it, as Discord resolves an upload', () => {
    const action = parseConsoleLine('/upload file:castle.png');
    if (action.kind !== 'command') throw new Error(`not a command: ${action.kind}`);
    expect(action.args).toEqual(new Map([['file', 'castle.png']]));
    const { options, attachments } = convertOptions('/upload', [FILE_OPTION], action.args, {
      user: (name) => c.identities.get(name),
      channel: (name) => c.identities.channel(name),
      role: (name) => c.identities.role(name),
      attachment: (path, option) => consoleAttachment(path, option, folder),
    });
    expect(attachments).toEqual({
      file: {
        id: expect.stringMatching(/^\d{18}$/),
        filename: 'castle.png',
        url: pathToFileURL(png).href,
        size: 3_000,
        contentType: 'image/png',
        width: null,
        height: null,
      },
    });
    expect(options).toEqual({ file: attachments.file?.id });
  });

  it('GIVEN a path to a file THEN the command reads exactly its bytes', async () => {
    expect(await c.session.run(`/upload file:${typed}`)).toBe('ok');
    expect(c.take()).toContain(`read castle.png (image/png): 3000 bytes, sha256 ${sha}`);
  });

  it('GIVEN a file larger than the command reads THEN it is refused as too large', async () => {
    expect(await c.session.run(`/upload file:${typed} max:2999`)).toBe('ok');
    expect(c.take()).toContain('unreadable: too_large');
    // Refused by the size the console saw, and again while reading when the file grew since.
    const ref = consoleAttachment(typed, 'file');
    await expect(fileAttachmentReader.read({ ...ref, size: 10 }, 2_999)).rejects.toMatchObject({
      reason: 'too_large',
    });
    await expect(fileAttachmentReader.read(ref, 3_000)).resolves.toEqual(bytes);
  });

  it('GIVEN a path where there is no file THEN the line fails with a clear message, in English and German', async () => {
    expect(await c.session.run('/upload file:nowhere/castle.png')).toBe('failed');
    expect(c.take()).toBe(
      `error: file must be a file: there is no file "nowhere/castle.png" in ${process.cwd()} (a path is read from the folder the console runs in), e.g. file:examples/heart.png\n`,
    );
    await c.session.run('!locale de');
    c.take();
    expect(await c.session.run(`/upload datei:${relative(process.cwd(), folder)}`)).toBe('failed');
    expect(c.take()).toBe(
      `Fehler: datei muss eine Datei sein: In ${process.cwd()} gibt es keine Datei „${relative(process.cwd(), folder)}“ (Pfade sind relativ zum Ordner, in dem die Konsole läuft), z. B. datei:examples/heart.png\n`,
    );
    expect(() => consoleAttachment('missing.png', 'file', folder)).toThrow(ConsoleLineError);
  });
});
