import type { ReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type AttachmentReader, type AttachmentRef, AttachmentUnreadable } from '../interactions/types.js';

export { AttachmentUnreadable } from '../interactions/types.js';

/** The longest one read of a member's file may take, connecting and downloading together. */
const TIMEOUT_MS = 10_000;

/**
 * Collects a stream's chunks up to `maxBytes`; one byte more and the rest is left unread
 * (`stop` closes the source), so a file far larger than allowed costs no more than the cap.
 */
async function capped(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  stop: () => Promise<void> | void,
): Promise<Buffer> {
  const kept: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      await stop();
      throw new AttachmentUnreadable('too_large');
    }
    kept.push(chunk);
  }
  return Buffer.concat(kept, total);
}

/** A fetched body's chunks as they arrive (read through its reader: not every lib types it iterable). */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** What Discord reports of the file's size, before anything is fetched. */
function refuseBySize(ref: AttachmentRef, maxBytes: number): void {
  if (ref.size > maxBytes) throw new AttachmentUnreadable('too_large');
}

/**
 * The bot's reader: the file from Discord's CDN (`ref.url`) over HTTP, within ten seconds,
 * refused by Discord's reported size before anything is fetched, then while it streams in.
 */
export function httpAttachmentReader(options: { timeoutMs?: number } = {}): AttachmentReader {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  return {
    async read(ref, maxBytes) {
      refuseBySize(ref, maxBytes);
      const url = URL.canParse(ref.url) ? new URL(ref.url) : null;
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
        throw new AttachmentUnreadable('unreachable', `the attachment's url is not http(s): ${ref.url}`);
      const controller = new AbortController();
      const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(timeoutMs)]);
      try {
        const response = await fetch(url, { signal, redirect: 'follow' });
        if (!response.ok || !response.body) {
          controller.abort();
          throw new AttachmentUnreadable('unreachable', `the attachment answered ${response.status}`);
        }
        return await capped(chunksOf(response.body), maxBytes, () => controller.abort());
      } catch (error) {
        if (error instanceof AttachmentUnreadable) throw error;
        throw new AttachmentUnreadable('unreachable', `the attachment cannot be fetched: ${String(error)}`);
      }
    },
  };
}

/**
 * The console's reader: a local file named by a `file://` url (what the console makes of an
 * attachment option's path), refused by its size at the time it was named, then while it is read.
 */
export const fileAttachmentReader: AttachmentReader = {
  async read(ref, maxBytes) {
    refuseBySize(ref, maxBytes);
    if (!ref.url.startsWith('file://'))
      throw new AttachmentUnreadable('unreachable', `the console reads only local files: ${ref.url}`);
    let stream: ReadStream;
    try {
      const file = await open(fileURLToPath(ref.url), 'r');
      stream = file.createReadStream();
    } catch (error) {
      throw new AttachmentUnreadable('unreachable', `the file cannot be opened: ${String(error)}`);
    }
    try {
      return await capped(stream, maxBytes, () => {
        stream.destroy();
      });
    } catch (error) {
      stream.destroy();
      if (error instanceof AttachmentUnreadable) throw error;
      throw new AttachmentUnreadable('unreachable', `the file cannot be read: ${String(error)}`);
    }
  },
};
