import type { Db } from 'mongodb';

/** The collections of `db` that hold at least one document, `system.*` and `except` apart, by name. */
export async function holdingDocuments(db: Db, except: readonly string[] = []): Promise<string[]> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((name) => !name.startsWith('system.') && !except.includes(name));
  const found = await Promise.all(
    names.map(async (name) =>
      (await db.collection(name).findOne({}, { projection: { _id: 1 } })) ? name : null,
    ),
  );
  return found.filter((name): name is string => name !== null).sort();
}
