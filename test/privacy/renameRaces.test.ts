import fc from 'fast-check';
import type { Collection, Db, Document } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { rewriteMentions } from '../../src/privacy/mentions.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

/**
 * An erasure renames a document whose `_id` names the member (a copy under the pseudonym, then
 * the old one deleted). Two processes can do it at once (one past its lease that has not
 * noticed yet), a process can stop between any two of its steps, and a feature can write the
 * document meanwhile. Every order of their database steps must end with the document there
 * once, under its new name, holding every write that landed.
 */
const t = useTestDatabase('privacy_rename');
const NORA = '876000000000000001';
const PSEUDONYM = 'forgotten-7f3a';
const COLLECTION = 'stakes';
const OLD_ID = `stake:${NORA}`;
const NEW_ID = `stake:${PSEUDONYM}`;

/**
 * Lets concurrent calls take one database step at a time: a step starts only once every call
 * still running waits for its next one, and `choices` picks which goes. A call named in `stop`
 * is stopped (its step throws) when it reaches that step.
 */
class Interleaving {
  private readonly waiting = new Map<string, { go: () => void; stop: (e: Error) => void }>();
  private readonly steps = new Map<string, number>();
  private readonly running: Set<string>;
  private picked = 0;

  constructor(
    names: readonly string[],
    private readonly choices: readonly number[],
    private readonly stop: { who: string; step: number } | null,
  ) {
    this.running = new Set(names);
  }

  turn(name: string): Promise<void> {
    const step = this.steps.get(name) ?? 0;
    this.steps.set(name, step + 1);
    return new Promise((go, stop) => {
      this.waiting.set(name, { go, stop });
      this.next();
    });
  }

  finished(name: string): void {
    this.running.delete(name);
    this.next();
  }

  private next(): void {
    if (this.waiting.size === 0 || this.waiting.size < this.running.size) return;
    const names = [...this.waiting.keys()].sort();
    const name = names[(this.choices[this.picked++ % this.choices.length] ?? 0) % names.length] as string;
    const { go, stop } = this.waiting.get(name) as { go: () => void; stop: (e: Error) => void };
    this.waiting.delete(name);
    if (this.stop?.who === name && this.stop.step === (this.steps.get(name) ?? 0) - 1) {
      stop(new Error(`${name} stopped`));
    } else {
      go();
    }
  }
}

/** `db` whose `COLLECTION` waits for `name`'s turn before each read and write. */
function stepped(db: Db, name: string, order: Interleaving): Db {
  const gate = (target: Collection<Document>): Collection<Document> =>
    new Proxy(target, {
      get(c, prop) {
        const value = Reflect.get(c, prop, c);
        if (typeof value !== 'function') return value;
        if (prop === 'find') {
          return (...args: unknown[]) => {
            const cursor = value.apply(c, args);
            return {
              async *[Symbol.asyncIterator]() {
                await order.turn(name);
                yield* cursor;
              },
            };
          };
        }
        return async (...args: unknown[]) => {
          await order.turn(name);
          return value.apply(c, args);
        };
      },
    });
  return new Proxy(db, {
    get(d, prop) {
      if (prop === 'collection')
        return (n: string) => (n === COLLECTION ? gate(d.collection(n)) : d.collection(n));
      const value = Reflect.get(d, prop, d);
      return typeof value === 'function' ? value.bind(d) : value;
    },
  });
}

const rename = (db: Db) => rewriteMentions(db, COLLECTION, new Map([[NORA, PSEUDONYM]]), () => 'rewrite');

describe('renaming a document while others rename and write it', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
  });

  it('GIVEN two erasures renaming one document, a feature adding to it and either erasure stopping at any step THEN after the next run it is there once, under the pseudonym, with every write that landed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(2), { minLength: 40, maxLength: 40 }),
        fc.option(fc.record({ who: fc.constantFrom('a', 'b'), step: fc.nat(8) }), { nil: null }),
        async (choices, stop) => {
          await clearDatabase(t.db);
          const stakes = t.db.collection<Document>(COLLECTION);
          await stakes.insertMany([
            { _id: OLD_ID as never, owner: NORA, amount: 7 },
            { _id: 'stake:other' as never, owner: 'other', amount: 3 },
          ]);
          const order = new Interleaving(['a', 'b', 'feature'], choices, stop);
          const run = async <T>(name: string, work: (db: Db) => Promise<T>) => {
            try {
              return await work(stepped(t.db, name, order));
            } catch (error) {
              if (!String(error).includes(`${name} stopped`)) throw error;
              return null;
            } finally {
              order.finished(name);
            }
          };
          const [, , added] = await Promise.all([
            run('a', rename),
            run('b', rename),
            run('feature', (db) =>
              db.collection(COLLECTION).updateOne({ _id: OLD_ID as never }, { $inc: { amount: 1 } }),
            ),
          ]);
          // The timer's process finishes what a stopped one left.
          await rename(t.db);

          const expected = 7 + (added?.modifiedCount ?? 0);
          expect(await stakes.find().sort({ _id: 1 }).toArray()).toEqual([
            { _id: NEW_ID, owner: PSEUDONYM, amount: expected },
            { _id: 'stake:other', owner: 'other', amount: 3 },
          ]);
        },
      ),
      { seed: 45, numRuns: 150 },
    );
  });
});
