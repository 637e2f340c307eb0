import type { Collection } from 'mongodb';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';

type Answers<R> = PromiseSettledResult<R>[];

/** Inserts documents in one unordered request; each one's answer: written (true) or a duplicate (false). */
export async function insertEach<T extends { _id: unknown }>(
  collection: Collection<T>,
  docs: T[],
): Promise<Answers<boolean>> {
  const duplicates = new Set<number>();
  const outcome = await writeEach(
    docs.length,
    () => collection.insertMany(docs as never, { ordered: false }),
    (i) => collection.insertOne(docs[i] as never),
    (i) => duplicates.add(i),
  );
  return outcome.map((r, i) =>
    r.status === 'fulfilled' ? { status: 'fulfilled', value: !duplicates.has(i) } : r,
  );
}

/**
 * Runs one shared request for `count` callers. A duplicate key of one document is that
 * caller's answer (`onDuplicate`), other errors of one document fail only that caller, and a
 * failure of the whole request (the network) retries each caller alone.
 */
export async function writeEach(
  count: number,
  shared: () => Promise<unknown>,
  alone: (i: number) => Promise<unknown>,
  onDuplicate: (i: number) => void = () => {},
): Promise<Answers<void>> {
  const ok = (): PromiseFulfilledResult<void> => ({ status: 'fulfilled', value: undefined });
  try {
    await shared();
    return Array.from({ length: count }, ok);
  } catch (error) {
    const writeErrors = (error as { writeErrors?: { index: number; code: number; errmsg?: string }[] })
      .writeErrors;
    if (!writeErrors) {
      return Promise.all(
        Array.from({ length: count }, async (_, i): Promise<PromiseSettledResult<void>> => {
          try {
            await alone(i);
            return ok();
          } catch (e) {
            if (isDuplicateKey(e)) {
              onDuplicate(i);
              return ok();
            }
            return { status: 'rejected', reason: e };
          }
        }),
      );
    }
    const results: Answers<void> = Array.from({ length: count }, ok);
    for (const w of [writeErrors].flat()) {
      if (w.code === 11000) onDuplicate(w.index);
      else results[w.index] = { status: 'rejected', reason: new Error(w.errmsg ?? `write error ${w.code}`) };
    }
    return results;
  }
}
