import type { Db, Document, Filter } from 'mongodb';
import { isDuplicateKey } from '../db/duplicateKey.js';

/**
 * Where a member's identifiers are, in every collection of the database: a member's Discord
 * id (and their workers' ids) sit in plain fields, in `_id`s, in operation ids and in texts
 * (`place:<id>:<request>`, `hold:heist:<h>:stake:<id>`, `drawn tip 3:1:<id>:7`). The kernel
 * reads and rewrites them generically, as the backup reads every collection, so that no
 * feature's new collection or new id format is forgotten: a string mentions an id when the id
 * appears in it between characters that are not letters or digits.
 */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function pattern(ids: readonly string[]): RegExp {
  const alternatives = [...ids].sort((a, b) => b.length - a.length).map(literally);
  return new RegExp(`(?<![0-9A-Za-z])(?:${alternatives.join('|')})(?![0-9A-Za-z])`, 'g');
}

/** Whether a document mentions one of `ids` in any string, key or value, at any depth. */
export function mentionsIn(ids: readonly string[]): (doc: unknown) => boolean {
  const re = pattern(ids);
  const test = (text: string) => {
    re.lastIndex = 0;
    return re.test(text);
  };
  const visit = (value: unknown): boolean => {
    if (typeof value === 'string') return test(value);
    if (Array.isArray(value)) return value.some(visit);
    if (isPlainObject(value)) return Object.entries(value).some(([k, v]) => test(k) || visit(v));
    return false;
  };
  return visit;
}

/** A copy of `doc` with every mention of an id of `to` replaced by its pseudonym. */
export function rewriteIn(to: ReadonlyMap<string, string>): <T>(doc: T) => T {
  const re = pattern([...to.keys()]);
  const text = (value: string) => value.replace(re, (id) => to.get(id) ?? id);
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(visit);
    if (isPlainObject(value))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), visit(v)]));
    return value;
  };
  return <T>(doc: T) => visit(doc) as T;
}

/** Plain documents and subdocuments; dates, ids and BSON values are kept as they are. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Every collection of `db` but `system.*`, by name. */
export async function collectionNames(db: Db): Promise<string[]> {
  return (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((name) => !name.startsWith('system.'))
    .sort();
}

/** Each document of the collections that mentions one of `ids`, collection by collection. */
export async function* findMentions(
  db: Db,
  ids: readonly string[],
  skip: ReadonlySet<string> = new Set(),
): AsyncGenerator<{ collection: string; doc: Document }> {
  const mentions = mentionsIn(ids);
  for (const collection of await collectionNames(db)) {
    if (skip.has(collection)) continue;
    for await (const doc of db.collection(collection).find({})) {
      if (mentions(doc)) yield { collection, doc };
    }
  }
}

export type MentionPolicy = 'rewrite' | 'delete';

export interface RewriteCounts {
  rewritten: number;
  deleted: number;
}

/**
 * Renaming a document (when its `_id` names the member) takes steps a process can stop
 * between, while another process (one slower than its lease) renames the same document and a
 * feature writes it. Each rename fences the old document with a number larger than any
 * earlier rename of it held, writes the copy under that number, and deletes the old document
 * only as it fenced it. A copy is written only over a smaller number, so an older read never
 * overwrites a newer one; the delete proves nothing changed since the fence, so the copy holds
 * the old document's last content. The call that deleted it writes the copy again unmarked
 * (or the next run unmarks it, once it finds the old document gone), and no older read writes
 * over an unmarked copy. Copies are never deleted.
 */
const RENAMING = '_renaming';

/**
 * Rewrites or deletes, in `collection`, every document that mentions one of the ids of `to`
 * (each replaced by its pseudonym). A document changed by someone else meanwhile is read again
 * and done again; one whose `_id` changes is renamed (above). Safe to run again, and beside
 * another run of itself: a second run finds nothing to do.
 */
export async function rewriteMentions(
  db: Db,
  collection: string,
  to: ReadonlyMap<string, string>,
  policy: (doc: Document) => MentionPolicy,
): Promise<RewriteCounts> {
  const mentions = mentionsIn([...to.keys()]);
  const rewrite = rewriteIn(to);
  const back = rewriteIn(new Map([...to].map(([id, pseudonym]) => [pseudonym, id])));
  const target = db.collection<Document>(collection);
  const counts: RewriteCounts = { rewritten: 0, deleted: 0 };
  for await (const found of target.find({})) {
    if (RENAMING in found && !mentions(found)) {
      await settleCopy(target, found, back(found._id));
      continue;
    }
    let doc: Document | null = found;
    for (let attempt = 0; doc && mentions(doc); attempt++) {
      if (attempt > 20)
        throw new Error(`${collection} ${String(found._id)} kept changing while it was rewritten`);
      const done =
        policy(doc) === 'delete' ? await remove(target, doc) : await replace(target, doc, rewrite(doc));
      if (done) {
        counts[policy(doc) === 'delete' ? 'deleted' : 'rewritten'] += 1;
        break;
      }
      doc = await target.findOne({ _id: doc._id });
    }
  }
  return counts;
}

/** Matches the document only as it was read: every top-level field equal. */
function asRead(doc: Document): Filter<Document> {
  return Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, v])) as Filter<Document>;
}

async function remove(target: ReturnType<Db['collection']>, doc: Document): Promise<boolean> {
  return (await target.deleteOne(asRead(doc))).deletedCount === 1;
}

async function replace(
  target: ReturnType<Db['collection']>,
  doc: Document,
  next: Document,
): Promise<boolean> {
  const { _id, [RENAMING]: _fence, ...fields } = next;
  if (sameId(doc._id, next._id)) return (await target.replaceOne(asRead(doc), fields)).matchedCount === 1;
  const copy = await target.findOne({ _id: next._id }, { projection: { [RENAMING]: 1 } });
  const fence = Math.max(Number(doc[RENAMING] ?? 0), Number(copy?.[RENAMING] ?? 0)) + 1;
  if ((await target.updateOne(asRead(doc), { $set: { [RENAMING]: fence } })).matchedCount !== 1) return false;
  try {
    await target.replaceOne(
      { _id: next._id, [RENAMING]: { $lt: fence } },
      { ...fields, [RENAMING]: fence },
      { upsert: true },
    );
  } catch (error) {
    // A later fence wrote the copy (this delete will fail), or the rename is over.
    if (!isDuplicateKey(error)) throw error;
  }
  if ((await target.deleteOne(asRead({ ...doc, [RENAMING]: fence }))).deletedCount !== 1) return false;
  // Written again, unmarked: the copy a finished rename left (the old document was created
  // again since) was not written over above.
  await target.replaceOne({ _id: next._id }, fields, { upsert: true });
  return true;
}

/** Unmarks a copy still marked once its old document is gone: its rename stopped there. */
async function settleCopy(
  target: ReturnType<Db['collection']>,
  copy: Document,
  oldId: unknown,
): Promise<void> {
  if (await target.findOne({ _id: oldId } as Filter<Document>, { projection: { _id: 1 } })) return;
  await target.updateOne({ _id: copy._id, [RENAMING]: copy[RENAMING] }, { $unset: { [RENAMING]: '' } });
}

function sameId(a: unknown, b: unknown): boolean {
  return typeof a === 'string' || typeof a === 'number' ? a === b : JSON.stringify(a) === JSON.stringify(b);
}
