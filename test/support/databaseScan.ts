import { BSON, type Db } from 'mongodb';

/**
 * Every document of every collection as Extended JSON, a line each, prefixed by its collection:
 * where a member's id or name could still be after they were forgotten (docs/operating.md,
 * "Privacy").
 */
export async function everything(db: Db): Promise<string> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  const parts: string[] = [];
  for (const name of names) {
    for (const doc of await db.collection(name).find({}).toArray()) {
      parts.push(`${name} ${BSON.EJSON.stringify(doc)}`);
    }
  }
  return parts.join('\n');
}

/** The lines of `dump` that name `id` (between characters that are not letters or digits, as the erasure reads them). */
export function naming(dump: string, id: string): string[] {
  const re = new RegExp(`(?<![0-9A-Za-z])${id}(?![0-9A-Za-z])`);
  return dump.split('\n').filter((line) => re.test(line));
}
