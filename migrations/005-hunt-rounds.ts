import type { Db, Document } from 'mongodb';
import type { Migration } from '../src/db/migrations.js';

/** Where a hunt document names its round at the top level. */
const ROUND_AT_TOP = [
  'hunt_task',
  'hunt_windows',
  'hunt_bests',
  'hunt_tips',
  'hunt_drawn_tips',
  'place_progress_events',
] as const;
/** The indexes whose key led with the round under its old name (same names, new key). */
const INDEXES = [
  ['hunt_bests', 'leaderboard'],
  ['hunt_tips', 'by_window'],
] as const;

/**
 * Each time the hunt's target moves is a round, as members read it; the documents called it a
 * `revision`, the word the canvas keeps for a pixel change. The field becomes `round` in the
 * task (and the ended rounds in its `past`), windows, bests, tips, progress events, the draw
 * bonus events' `tip` and a reroll's pending announcement; the two indexes keyed on it are
 * dropped here and built again on `round` at start-up. Documents already renamed are left as
 * they are, so a second run changes nothing.
 */
export const huntRounds: Migration = {
  id: '005-hunt-rounds',
  summary: 'hunt: a round is stored as `round`, no longer `revision`',
  collections: [...ROUND_AT_TOP, 'place_bonus_events', 'due_tasks'],
  async up(db) {
    for (const [collection, name] of INDEXES) await dropKeyedOnRevision(db, collection, name);
    for (const collection of ROUND_AT_TOP) {
      await db
        .collection(collection)
        .updateMany({ revision: { $exists: true } }, { $rename: { revision: 'round' } });
    }
    const tasks = db.collection<Document>('hunt_task');
    for await (const task of tasks.find({ 'past.revision': { $exists: true } })) {
      const past = (task.past as Document[]).map(({ revision, ...ended }) => ({ round: revision, ...ended }));
      await tasks.updateOne({ _id: task._id }, { $set: { past } });
    }
    await db
      .collection('place_bonus_events')
      .updateMany({ 'tip.revision': { $exists: true } }, { $rename: { 'tip.revision': 'tip.round' } });
    await db
      .collection('due_tasks')
      .updateMany(
        { kind: 'hunt.rerolled', 'payload.revision': { $exists: true } },
        { $rename: { 'payload.revision': 'payload.round' } },
      );
  },
};

async function dropKeyedOnRevision(db: Db, collection: string, name: string): Promise<void> {
  const indexes = await db
    .collection(collection)
    .listIndexes()
    .toArray()
    .catch((error: { codeName?: string }) => {
      // A collection never created has no index.
      if (error.codeName === 'NamespaceNotFound') return [];
      throw error;
    });
  const old = indexes.find((index) => index.name === name && 'revision' in (index.key as Document));
  if (old) await db.collection(collection).dropIndex(name);
}
