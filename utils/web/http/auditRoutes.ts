import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { utcDay } from '../../../src/clock.js';
import { parseQuery, wholeNumber } from '../../../src/http/params.js';
import { type Locale, requestLocale } from '../../../src/i18n/i18n.js';
import { discordToPlain } from '../../../src/i18n/webText.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { AUDIT_KINDS } from '../../admin/auditKinds.js';
import type { AuditDoc, AuditPosition } from '../../admin/auditStore.js';
import { mentionedIds, plainText } from '../plainText.js';
import type { WebGate } from './gate.js';

/** The most rows a CSV export holds: a year of a busy server's moderation. */
const CSV_ROWS = 10_000;
const CSV_COLUMNS = ['at', 'kind', 'actor_id', 'actor_name', 'subject_id', 'subject_name', 'text'] as const;

/** A member's id, or the pseudonym of a member forgotten since (their entries carry it). */
const memberId = z.string().regex(/^(\d{15,21}|former-[0-9a-f]{10})$/, {
  error: 'a member id (15 to 21 digits) or a pseudonym (former- and 10 hex digits)',
});
const before = z
  .string()
  .max(300)
  .transform((text, ctx) => {
    const position = readCursor(text);
    if (!position) ctx.addIssue({ code: 'custom', message: "not a cursor: give the previous page's next" });
    return position as AuditPosition;
  });
const filters = {
  kind: z.enum(AUDIT_KINDS, { error: `one of ${AUDIT_KINDS.join(', ')}` }).optional(),
  actor: memberId.optional(),
  subject: memberId.optional(),
  before: before.optional(),
};
const pageQuery = { ...filters, limit: wholeNumber(1, 100).default(50) };

/** One entry as the portal shows it: names beside the ids, the line as plain text. */
interface AuditEntryView {
  id: string;
  kind: string;
  actor_id: string;
  actor_name: string;
  subject_id: string | null;
  subject_name: string | null;
  text: string;
  at: string;
}

/**
 * Moderators: the audit trail (docs/web.md, "The API"), every action of a moderator or an admin
 * that the audit channel got, newest first, a page at a time or as a CSV file.
 */
export function auditRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { services } = deps;
  const { signedIn } = gate;

  app.get('/api/admin/audit', async (request) => {
    await signedIn(request, 'moderator');
    const { limit, before, ...filter } = parseQuery(pageQuery, request.query);
    // One more than the page: whether a next page exists, without an empty last page.
    const docs = await services.admin.entries(filterOf(filter), { limit: limit + 1, before });
    const page = docs.slice(0, limit);
    const last = page.at(-1);
    return {
      // On a page, a timestamp reads as a date in the reader's language; the CSV keeps ISO times.
      entries: await view(deps, page, requestLocale(request.headers['accept-language'])),
      next: docs.length > limit && last ? writeCursor({ at: last.at, id: last._id }) : null,
      kinds: [...AUDIT_KINDS],
    };
  });

  app.get('/api/admin/audit.csv', async (request, reply) => {
    await signedIn(request, 'moderator');
    const { before, ...filter } = parseQuery(filters, request.query);
    const docs = await services.admin.entries(filterOf(filter), { limit: CSV_ROWS, before });
    const rows = (await view(deps, docs)).map((e) => [
      e.at,
      e.kind,
      e.actor_id,
      e.actor_name,
      e.subject_id ?? '',
      e.subject_name ?? '',
      e.text,
    ]);
    const csv = stringify(rows, {
      header: true,
      columns: [...CSV_COLUMNS],
      // RFC 4180: CRLF between records, and a cell with a line break of any kind quoted.
      record_delimiter: 'windows',
      quote_record_delimiter: true,
      // A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) starts with '.
      escape_formulas: true,
      // Spreadsheets read the file as UTF-8 (a German server's umlauts) only with the mark.
      bom: true,
    });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${utcDay(deps.clock.now())}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
}

function filterOf(query: { kind?: AuditDoc['kind']; actor?: string; subject?: string }) {
  return { kind: query.kind, actorId: query.actor, subjectId: query.subject };
}

/** The entries with every member they name resolved to a name in one read (the id where none is known). */
async function view(deps: BotDeps, docs: AuditDoc[], locale?: Locale): Promise<AuditEntryView[]> {
  const ids = new Set<string>();
  for (const doc of docs) {
    ids.add(doc.actorId);
    if (doc.subjectId) ids.add(doc.subjectId);
    for (const id of mentionedIds(doc.text)) ids.add(id);
  }
  const names = await deps.profiles.names([...ids]);
  const nameOf = (id: string) => names.get(id) ?? id;
  return docs.map((doc) => ({
    id: doc._id,
    kind: doc.kind,
    actor_id: doc.actorId,
    actor_name: nameOf(doc.actorId),
    subject_id: doc.subjectId ?? null,
    subject_name: doc.subjectId ? nameOf(doc.subjectId) : null,
    text: plainText(locale ? discordToPlain(doc.text, locale, deps.clock.now()) : doc.text, (id) =>
      names.get(id),
    ),
    at: doc.at.toISOString(),
  }));
}

/** Where a page ended, opaque to the client: the last entry's time and id. */
function writeCursor(position: AuditPosition): string {
  return Buffer.from(JSON.stringify([position.at.getTime(), position.id])).toString('base64url');
}

function readCursor(text: string): AuditPosition | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = z.tuple([z.number().int().min(0).max(8.64e15), z.string().min(1).max(200)]).safeParse(value);
  return parsed.success ? { at: new Date(parsed.data[0]), id: parsed.data[1] } : null;
}
