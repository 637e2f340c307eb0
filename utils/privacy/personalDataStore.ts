import type { Db, Document } from 'mongodb';
import { MIGRATIONS_COLLECTION } from '../../src/db/migrations.js';
import {
  collectionNames,
  findMentions,
  type MentionPolicy,
  type RewriteCounts,
  rewriteMentions,
} from '../../src/privacy/mentions.js';
import { ERASURES } from './erasureStore.js';

/** Collections that hold no member's data of their own: the erasures' records, the migrations'. */
const NOT_MEMBERS_DATA: ReadonlySet<string> = new Set([ERASURES, MIGRATIONS_COLLECTION]);

/**
 * The only code of a feature that reads and rewrites every collection: what the bot keeps
 * about a member, wherever a feature put it (src/privacy/mentions.ts). Exports read it;
 * erasures rewrite it, one collection at a time.
 */
export class PersonalDataStore {
  constructor(private readonly db: Db) {}

  /** Every document that mentions one of `ids`, by collection (in name order). */
  async gather(ids: readonly string[]): Promise<Map<string, Document[]>> {
    const found = new Map<string, Document[]>();
    for await (const { collection, doc } of findMentions(this.db, ids, NOT_MEMBERS_DATA)) {
      const list = found.get(collection) ?? [];
      list.push(doc);
      found.set(collection, list);
    }
    return found;
  }

  /** The collections an erasure goes through, `last` at the end in their order. */
  async collectionsToRewrite(last: readonly string[]): Promise<string[]> {
    const names = (await collectionNames(this.db)).filter((c) => !NOT_MEMBERS_DATA.has(c));
    return [...names.filter((c) => !last.includes(c)), ...last.filter((c) => names.includes(c))];
  }

  rewrite(
    collection: string,
    to: ReadonlyMap<string, string>,
    policy: (doc: Document) => MentionPolicy,
  ): Promise<RewriteCounts> {
    return rewriteMentions(this.db, collection, to, policy);
  }
}
