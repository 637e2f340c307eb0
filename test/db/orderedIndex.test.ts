import fc from 'fast-check';
import { type Collection, Double, type Filter, Long, type Sort } from 'mongodb';
import { beforeEach, describe, expect, test } from 'vitest';
import { clearDatabase, useTestDatabase } from '../support/database.js';

/**
 * The embedded server's indexes that are not unique (OrderedIndex in tools/mongo-java-server),
 * its ranges of `_id` (IdRanges) and its `$or` of indexed branches decide which documents a
 * filter reads. They must never leave one out: every filter and aggregation answers the same
 * with the indexes as without them, whatever was inserted, changed and deleted, with values of
 * every type in the indexed fields (arrays on the path, null, missing, subdocuments, booleans,
 * -0, mixed numbers) and filters by value, `$in`, range, `$exists` and `$or`. On MongoDB
 * (MONGODB_URI) the same test holds trivially, as it should.
 */
interface Doc {
  _id: number;
  at?: unknown;
  group?: unknown;
  owner?: unknown;
  n: number;
}

const day = (d: number) => new Date(Date.UTC(2026, 0, d));
const atValue = fc.oneof(
  fc.integer({ min: 1, max: 6 }).map(day),
  fc.integer({ min: -2, max: 3 }),
  fc.constant(new Double(2)),
  fc.constantFrom('a', 'b', 'c'),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant([day(2), day(5)]),
  fc.constantFrom(new Double(-0), true, { at: day(2) }),
);
const groupValue = fc.oneof(
  fc.constantFrom('x', 'y'),
  fc.constant(1),
  fc.constant(new Double(1)),
  fc.constant(['x', 'y']),
  fc.constant(undefined),
);
const ownerValue = fc.oneof(
  fc.record({ kind: fc.constantFrom('game', 'poker'), id: fc.constantFrom('r1', 'r2', 'r3') }),
  fc.constant([{ kind: 'game', id: 'r1' }]),
  fc.constant({ kind: null, id: 'r1' }),
  fc.constant({ kind: 'game', id: ['r1', 'r2'] }),
  fc.constant({ kind: 'game' }),
  fc.constant({ kind: 'poker', id: null }),
  fc.constant(undefined),
);
const bound = fc.oneof(
  fc.integer({ min: 0, max: 7 }).map(day),
  fc.integer({ min: -3, max: 4 }),
  fc.constant(new Double(-0)),
  fc.constantFrom('a', 'b', 'bb'),
);
const atFilter = fc.oneof(
  bound,
  fc.array(bound, { minLength: 1, maxLength: 3 }).map((values) => ({ $in: values })),
  fc.record({ $gte: bound }, { requiredKeys: [] }),
  fc.record({ $gt: bound, $lt: bound }, { requiredKeys: [] }),
  fc.record({ $gte: bound, $lte: bound }, { requiredKeys: [] }),
  fc.constantFrom({ $exists: true }, { $exists: false }),
  bound.map((b) => ({ $exists: true, $lte: b })),
);
/** Ranges of `_id` (served by the `_id` index, IdRanges), of every type a bound can have. */
const idBound = fc.oneof(
  fc.integer({ min: -1, max: 41 }),
  fc.constant(new Double(2.5)),
  fc.constantFrom('a', day(1)),
);
const idRange = fc
  .oneof(
    fc.record({ $gt: idBound, $lte: idBound }, { requiredKeys: [] }),
    fc.record({ $gte: idBound, $lt: idBound }, { requiredKeys: [] }),
  )
  .filter((range) => Object.keys(range).length > 0);
const branch = fc.oneof(
  atFilter.map((at) => ({ at })),
  fc.constantFrom('x', 'y', 1).map((group) => ({ group })),
  idRange.map((_id) => ({ _id })),
  fc.constantFrom('game', 'poker').map((kind) => ({ 'owner.kind': kind })),
  fc.constant({ n: 2 }),
);
const filter = fc.oneof(
  atFilter.map((at) => ({ at })),
  idRange.map((_id) => ({ _id })),
  fc.tuple(idRange, atFilter).map(([_id, at]) => ({ _id, at })),
  fc.tuple(fc.array(fc.nat(41), { maxLength: 6 }), atFilter).map(([ids, at]) => ({ _id: { $in: ids }, at })),
  fc.array(branch, { minLength: 1, maxLength: 3 }).map(($or) => ({ $or })),
  fc
    .tuple(fc.array(branch, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 3 }))
    .map(([$or, n]) => ({
      n: { $lte: n },
      $or,
    })),
  fc.tuple(fc.constantFrom('x', 'y', 1), atFilter).map(([group, at]) => ({ group, at })),
  fc.constantFrom('x', 'y', 1).map((group) => ({ group })),
  fc.tuple(fc.subarray(['x', 'y', 1, 'z']), atFilter).map(([group, at]) => ({ group: { $in: group }, at })),
  fc.tuple(fc.constantFrom('game', 'poker'), fc.subarray(['r1', 'r2', 'r3'])).map(([kind, ids]) => ({
    'owner.kind': kind,
    'owner.id': { $in: ids },
  })),
  fc.constantFrom('game', 'poker').map((kind) => ({ 'owner.kind': kind })),
  fc.constantFrom('game', 'poker').map((kind) => ({ 'owner.kind': kind, 'owner.id': { $exists: true } })),
  fc.tuple(atFilter, fc.integer({ min: 0, max: 3 })).map(([at, n]) => ({ at, n: { $lte: n } })),
);
const step = fc.oneof(
  fc.record({
    op: fc.constant('insert' as const),
    at: atValue,
    group: groupValue,
    owner: ownerValue,
    n: fc.nat(3),
  }),
  fc.record({
    op: fc.constant('set' as const),
    id: fc.nat(29),
    at: atValue,
    group: groupValue,
    owner: ownerValue,
  }),
  fc.record({ op: fc.constant('unset' as const), id: fc.nat(29) }),
  fc.record({ op: fc.constant('delete' as const), id: fc.nat(29) }),
);

type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

function fields(s: { at: unknown; group: unknown; owner: unknown }): Partial<Doc> {
  return {
    ...(s.at === undefined ? {} : { at: s.at }),
    ...(s.group === undefined ? {} : { group: s.group }),
    ...(s.owner === undefined ? {} : { owner: s.owner }),
  };
}

async function apply(docs: Collection<Doc>, steps: Step[]): Promise<void> {
  let next = 0;
  for (const s of steps) {
    if (s.op === 'insert') await docs.insertOne({ _id: next++, n: s.n, ...fields(s) });
    else if (s.op === 'set') await docs.updateOne({ _id: s.id % Math.max(next, 1) }, { $set: fields(s) });
    else if (s.op === 'unset')
      await docs.updateOne({ _id: s.id % Math.max(next, 1) }, { $unset: { at: '' } });
    else await docs.deleteOne({ _id: s.id % Math.max(next, 1) });
  }
}

describe('indexes that are not unique, on the embedded server', () => {
  const t = useTestDatabase('ordered_index');
  beforeEach(() => clearDatabase(t.db));

  test('every filter and aggregation finds the same documents with the indexes as without, after any inserts, changes and deletes', async () => {
    const indexed = t.db.collection<Doc>('indexed');
    const plain = t.db.collection<Doc>('plain');
    await indexed.createIndex({ at: 1 }, { name: 'by_at' });
    await indexed.createIndex({ group: 1, at: -1 }, { name: 'by_group_at' });
    await indexed.createIndex({ 'owner.kind': 1, 'owner.id': 1 }, { name: 'by_owner' });
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.array(filter, { minLength: 1, maxLength: 6 }),
        async (steps, filters) => {
          await Promise.all([indexed.deleteMany({}), plain.deleteMany({})]);
          await apply(indexed, steps);
          await apply(plain, steps);
          for (const asked of filters) {
            // The plain collection's filter is wrapped in `$and`, which no index here serves:
            // it reads every document, even where the `_id` index would narrow the filter.
            const [f, whole] = [asked, { $and: [asked] }];
            const sort: Sort = { n: 1, _id: -1 };
            const [withIndex, without] = await Promise.all([
              indexed.find(f as Filter<Doc>).toArray(),
              plain.find(whole as Filter<Doc>).toArray(),
            ]);
            const ids = (docs: Doc[]) => docs.map((d) => d._id).sort((a, b) => a - b);
            expect(ids(withIndex as Doc[]), JSON.stringify(f)).toEqual(ids(without as Doc[]));
            const [firstTwo, plainTwo] = await Promise.all([
              indexed.find(f as Filter<Doc>, { sort, limit: 2 }).toArray(),
              plain.find(whole as Filter<Doc>, { sort, limit: 2 }).toArray(),
            ]);
            expect(firstTwo, JSON.stringify(f)).toEqual(plainTwo);
            const [counted, plainCount] = await Promise.all([
              indexed.countDocuments(f as Filter<Doc>),
              plain.countDocuments(whole as Filter<Doc>),
            ]);
            expect(counted).toBe(plainCount);
            // An aggregation reads its first $match's candidates from the indexes (Pushdown).
            const [grouped, plainGrouped] = await Promise.all(
              [
                [indexed, f],
                [plain, whole],
              ].map(([c, m]) =>
                (c as Collection<Doc>)
                  .aggregate<{ ids: number[] }>([
                    { $match: m as Filter<Doc> },
                    { $group: { _id: null, ids: { $push: '$_id' } } },
                  ])
                  .toArray(),
              ),
            );
            const groupedIds = (rows: { ids: number[] }[]) => (rows[0]?.ids ?? []).sort((a, b) => a - b);
            expect(groupedIds(grouped ?? []), JSON.stringify(f)).toEqual(groupedIds(plainGrouped ?? []));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('GIVEN 2,000 events THEN a range of `_id`s, a `$or` of indexed branches and `_id` `$in` with more fields read no collection whole', async () => {
    if (process.env.MONGODB_URI) return; // the count of unnarrowed reads is the launcher's (Scans)
    const events = t.db.collection<{ _id: number; kind: string; at: Date }>('events');
    await events.createIndex({ kind: 1, at: 1 }, { name: 'by_kind_at' });
    await events.insertMany(
      Array.from({ length: 2_000 }, (_, i) => ({
        _id: i + 1,
        kind: i % 2 ? 'place' : 'void',
        at: day(1 + (i % 5)),
      })),
    );
    await t.db.command({ launcherScans: 1 });
    const range = await events
      .find({ _id: { $gt: 100, $lte: 150 } })
      .sort({ _id: 1 })
      .toArray();
    expect(range.map((e) => e._id)).toEqual(Array.from({ length: 50 }, (_, i) => 101 + i));
    expect(await events.countDocuments({ _id: { $gt: 100, $lte: 150 }, kind: 'place' })).toBe(25);
    const either = { $or: [{ kind: 'place', at: day(1) }, { _id: { $lte: 3 } }] };
    expect(await events.countDocuments(either)).toBe(200 + 3);
    expect(await events.countDocuments({ _id: { $in: [1, 2, 3, 4] }, kind: 'void' })).toBe(2);
    // `$in` is tested against a set: numbers by value whatever their type, a string is not a number.
    const mixed = t.db.collection<{ _id: number | string | Double | Long; kind: string }>('events');
    expect(await mixed.countDocuments({ _id: { $in: [new Double(1), Long.fromNumber(3), '2'] } })).toBe(2);
    const marked = await mixed.updateMany(
      { _id: { $in: [1, 2, new Double(3), 4, 'x'] }, kind: 'void' },
      { $set: { kind: 'seen' } },
    );
    expect(marked.modifiedCount).toBe(2);
    expect(await events.countDocuments({ kind: 'seen' })).toBe(2);
    await events.deleteMany({ _id: { $gt: 1_990 } });
    expect(await events.countDocuments({ _id: { $gte: 1_980 } })).toBe(11);
    const { scans } = (await t.db.command({ launcherScans: 1 })) as { scans: { shape: string }[] };
    expect(scans.filter((s) => s.shape.includes(' events '))).toEqual([]);
  });

  test('-0 is 0, and values of other types are kept apart only where no filter could match them', async () => {
    const docs = t.db.collection<Doc>('edges');
    await docs.createIndex({ group: 1, at: 1 }, { name: 'by_group_at' });
    await docs.insertMany([
      { _id: 1, n: 0, group: new Double(-0), at: new Double(-0) },
      { _id: 2, n: 0, group: 0, at: 0 },
      { _id: 4, n: 0, group: 0, at: true },
      { _id: 5, n: 0, group: 0, at: { at: 0 } },
      { _id: 6, n: 0, group: 0 },
      { _id: 7, n: 0, group: 0, at: [5, -5] },
    ]);
    const ids = async (filter: Filter<Doc>) =>
      (await docs.find(filter).toArray()).map((d) => d._id).sort((a, b) => a - b);
    expect(await ids({ group: 0, at: 0 })).toEqual([1, 2]);
    expect(await ids({ group: new Double(-0), at: { $gte: 0, $lte: 0 } })).toEqual([1, 2]);
    expect(await ids({ group: { $in: [0] }, at: { $in: [new Double(-0)] } })).toEqual([1, 2]);
    // An array matches through one of its elements; booleans and subdocuments never match a
    // number. (A NaN is a candidate of every range; whether it matches is the server's own
    // comparison, which has given both answers here, so no test states one.)
    expect(await ids({ group: 0, at: { $gte: 1 } })).toEqual([7]);
    expect(await ids({ group: 0, at: { $lte: -5 } })).toEqual([7]);
    expect(await ids({ group: 0 })).toEqual([1, 2, 4, 5, 6, 7]);
    // A null is there, a missing key is not: `$exists: true` reads all but the missing one.
    await docs.insertMany([
      { _id: 8, n: 0, group: 0, at: null },
      { _id: 9, n: 0, group: 0, at: [] },
    ]);
    expect(await ids({ group: 0, at: { $exists: true } })).toEqual([1, 2, 4, 5, 7, 8, 9]);
    expect(await ids({ group: 0, at: { $exists: false } })).toEqual([6]);
  });

  test('a range of times reads only its part: the scheduler claims a due task among many done ones, and deletes by range', async () => {
    const tasks = t.db.collection<{ _id: string; status: string; dueAt: Date }>('tasks');
    await tasks.createIndex({ status: 1, dueAt: 1 }, { name: 'due_first' });
    await tasks.insertMany(
      Array.from({ length: 500 }, (_, i) => ({
        _id: `t${i}`,
        status: i === 250 ? 'due' : 'done',
        dueAt: day(1),
      })),
    );
    const claimed = await tasks.findOneAndUpdate(
      { status: 'due', dueAt: { $lte: day(2) } },
      { $set: { status: 'running' } },
      { sort: { dueAt: 1, _id: 1 }, returnDocument: 'after' },
    );
    expect(claimed?._id).toBe('t250');
    expect(await tasks.countDocuments({ status: 'due', dueAt: { $lte: day(2) } })).toBe(0);
    expect((await tasks.deleteMany({ status: 'done', dueAt: { $lt: day(2) } })).deletedCount).toBe(499);
    expect(await tasks.find({}).toArray()).toEqual([{ _id: 't250', status: 'running', dueAt: day(1) }]);
  });
});
