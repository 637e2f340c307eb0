import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AttachmentRef } from '../interactions/types.js';
import { ConsoleLineError } from './consoleTexts.js';

/** What Discord reports as a file's `content_type`, by its extension; null for one it would not name. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.pdf': 'application/pdf',
};

/**
 * An attachment option typed at the console (`image:examples/heart.png`): the local file at that
 * path, relative to the folder the console runs in, as Discord would resolve an upload of it. Its
 * url is the file's `file://` url (the console's attachment reader reads those), its size the
 * file's now; pixels are not measured (null). The id is snowflake-shaped and the same for the
 * same path in every run, so a script replays identically.
 */
export function consoleAttachment(typed: string, option: string, folder = process.cwd()): AttachmentRef {
  const absolute = path.resolve(folder, typed);
  const stat = statSync(absolute, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new ConsoleLineError('core:console.noFile', { option, path: typed, folder });
  const digits = BigInt(`0x${createHash('sha256').update(absolute).digest('hex').slice(0, 15)}`) % 10n ** 16n;
  return {
    id: `30${digits.toString().padStart(16, '0')}`,
    filename: path.basename(absolute),
    url: pathToFileURL(absolute).href,
    size: stat.size,
    contentType: CONTENT_TYPES[path.extname(absolute).toLowerCase()] ?? null,
    width: null,
    height: null,
  };
}
