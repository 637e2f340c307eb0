import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../../src/http/contract.js';
import { parseQuery, wholeNumber } from '../../../src/http/params.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import type { LogCursor, ModerationLogDoc } from '../../place/moderationLogStore.js';
import { moderationLogPage } from '../moderationLogPage.js';
import { pageLocale } from '../webText.js';

/** The page shows this many of the latest entries. */
const PAGE_ENTRIES = 100;
const cursorText = z.string().regex(/^[\w-]{4,200}$/, { error: 'the next of an earlier page' });

/** A page's end as the client carries it: the last entry's time and id, opaque (base64url). */
function encodeCursor(entry: ModerationLogDoc): string {
  return Buffer.from(`${entry.at.getTime()}|${entry._id}`).toString('base64url');
}

function decodeCursor(text: string): LogCursor {
  const match = /^(\d{1,15})\|(.{1,120})$/s.exec(Buffer.from(text, 'base64url').toString());
  if (!match) throw new HttpError('BAD_REQUEST', 'before: the next of an earlier page');
  return { at: new Date(Number(match[1])), id: match[2] as string };
}

/** An entry as anyone may read it: what, where, by which role and why; never a member's or moderator's id. */
function publicEntry(entry: ModerationLogDoc) {
  return {
    at: entry.at.toISOString(),
    action: entry.action,
    area: entry.area,
    ...(entry.pixels === undefined ? {} : { pixels: entry.pixels }),
    ...(entry.name === undefined ? {} : { name: entry.name }),
    role: entry.role,
    reason: entry.reason,
  };
}

/** The public moderation log: `GET /api/public/place/moderation` and the page `/place/moderation`. */
export function moderationLogRoutes(app: FastifyInstance, { services }: BotDeps): void {
  app.get('/api/public/place/moderation', async (request) => {
    const query = parseQuery(
      { before: cursorText.optional(), limit: wholeNumber(1, 100).default(50) },
      request.query,
    );
    const before = query.before ? decodeCursor(query.before) : null;
    const entries = await services.place.moderationLog(before, query.limit + 1);
    const page = entries.slice(0, query.limit);
    const last = page.at(-1);
    return {
      entries: page.map(publicEntry),
      next: entries.length > query.limit && last ? encodeCursor(last) : null,
    };
  });

  // A page reads no query (links pick up a chat app's or a tracker's parameters).
  app.get('/place/moderation', { config: { page: true } }, async (request, reply) => {
    const entries = await services.place.moderationLog(null, PAGE_ENTRIES);
    return reply
      .type('text/html; charset=utf-8')
      .header('vary', 'accept-language')
      .send(moderationLogPage(pageLocale(request), entries));
  });
}
