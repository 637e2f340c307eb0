/**
 * Most values one `$in` names. MongoDB takes far more, but the embedded server compares each
 * document it reads with every value of the list, one by one, and its ordered indexes serve a
 * `$in` of at most 256 values (tools/mongo-java-server/MongoLauncher.java, `MAX_GROUPS`): the
 * full check of a month's holds, one `$in` of 16,000 accounts, took minutes there and blocked
 * every other request. In parts of this size each read is served by an index, at the cost of a
 * few more round trips on MongoDB.
 */
export const IN_LIST_MAX = 256;

/** `values` without repeats, in parts of at most `IN_LIST_MAX`, for one `$in` each. */
export function inChunks<T>(values: Iterable<T>, size = IN_LIST_MAX): T[][] {
  const unique = [...new Set(values)];
  const parts: T[][] = [];
  for (let i = 0; i < unique.length; i += size) parts.push(unique.slice(i, i + size));
  return parts;
}

/**
 * The items of `source` in arrays of at most `size`, as they arrive: a checker reads a
 * history part by part (each part's related documents by one `$in`), never whole.
 */
export async function* inBatches<T>(source: AsyncIterable<T>, size = IN_LIST_MAX): AsyncIterable<T[]> {
  let batch: T[] = [];
  for await (const item of source) {
    batch.push(item);
    if (batch.length < size) continue;
    yield batch;
    batch = [];
  }
  if (batch.length > 0) yield batch;
}
