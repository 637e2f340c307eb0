import type { Collection } from 'mongodb';
import type { Migration } from '../src/db/migrations.js';

const EVENTS = 'place_pixel_events';
const PIXELS = 'place_pixels';
const ROLLBACKS = 'place_rollbacks';
/** The palette's last colour, white: what a pixel never painted shows. */
const BLANK = 31;

interface Event {
  _id: number;
  kind: 'place' | 'rollback' | 'void';
  opId?: string;
  x: number;
  y: number;
  color: number;
  owner: string | null;
  cost: number;
  at: Date;
  restores?: number;
  paintedAt?: Date;
  undoes?: { painter: string; revisions: number[] };
}

interface OldPixel {
  x: number;
  y: number;
  color: number;
  owner: string | null;
  seenRevision: number;
}

interface Rollback {
  _id: string;
  target: string;
  pixels: OldPixel[];
  placements: number;
  status: string;
  painted?: number;
}

/** What one rollback step does, as the rollbacks now record it (`RollbackPixel`, a rollback's event). */
interface Step {
  restores: number;
  paintedAt?: Date;
  undoes: number[];
  cost: number;
}

/**
 * A rollback now records, on each pixel and on its event, the placement it puts back
 * (`restores`, `paintedAt`) and the member's placements it undoes (`undoes`, what a refund pays
 * for), so a later rollback never undoes or refunds a placement twice; a rollback counts
 * `painted`, and what it undid (`undone`) once applied, which rankings leave out; and a restored
 * pixel shows when its state was painted. Rollbacks from before kept none of it: each step is
 * found again from the history, oldest first: the state it put back is the one before the
 * newest of the member's placements (up to the state seen at the preview) whose previous state
 * has the colour and painter it restored, and it undid the member's placements from there on
 * that no earlier step undid (an old rollback could restore a pixel twice: the second undid
 * nothing). A step whose state is found nowhere restores blank and undid nothing. Steps already
 * recorded are read, not found again, so a second run changes nothing.
 */
export const placeRollbackUndoes: Migration = {
  id: '004-place-rollback-undoes',
  summary:
    'place_pixel_events, place_rollbacks, place_pixels: a rollback records what it puts back and undid; a restored pixel shows when it was painted',
  collections: [EVENTS, ROLLBACKS, PIXELS],
  async up(db) {
    const events = db.collection<Event>(EVENTS);
    const rollbacks = db.collection<Rollback>(ROLLBACKS);
    const undone = new Set<number>();
    const written = new Map<string, Step>();
    for await (const event of events.find({ kind: 'rollback' }).sort({ _id: 1 })) {
      const step = event.undoes
        ? await recorded(events, event)
        : await oldStep(events, rollbacks, event, undone);
      for (const revision of step.undoes) undone.add(revision);
      if (event.opId) written.set(event.opId, step);
      // Still the pixel's state: it shows when the state put back was painted.
      if (step.paintedAt) {
        await db
          .collection<{ _id: string; revision: number; at: Date }>(PIXELS)
          .updateOne({ _id: `${event.x}:${event.y}`, revision: event._id }, { $set: { at: step.paintedAt } });
      }
    }
    for await (const plan of rollbacks.find({ painted: { $exists: false } })) {
      const pixels: (OldPixel & Step)[] = [];
      const restored: Step[] = [];
      for (const [i, px] of plan.pixels.entries()) {
        const done = written.get(`rollback:${plan._id}:${i}`);
        if (done) restored.push(done);
        pixels.push({ ...px, ...(done ?? (await findStep(events, plan.target, px, undone))) });
      }
      const tally = (steps: Step[]) => ({
        placements: steps.reduce((sum, s) => sum + s.undoes.length, 0),
        cost: steps.reduce((sum, s) => sum + s.cost, 0),
      });
      const { placements, cost } = tally(pixels);
      await rollbacks.updateOne(
        { _id: plan._id, painted: { $exists: false } },
        {
          $set: {
            pixels,
            painted: plan.placements,
            placements,
            // One being applied may have promised its refund already, as much as it said then
            // (never less than what its restored pixels cost): its hold is reserved with that.
            ...(plan.status === 'applying' ? {} : { refund: cost }),
            ...(plan.status === 'applied' ? { undone: { pixels: restored.length, ...tally(restored) } } : {}),
          },
        },
      );
    }
  },
};

/** A step recorded already (a second run): what its event says, and what its placements cost. */
async function recorded(events: Collection<Event>, event: Event): Promise<Step> {
  const revisions = event.undoes?.revisions ?? [];
  const undoneEvents = await events.find({ _id: { $in: revisions } }).toArray();
  return {
    restores: event.restores ?? 0,
    ...(event.paintedAt ? { paintedAt: event.paintedAt } : {}),
    undoes: revisions,
    cost: undoneEvents.reduce((sum, e) => sum + e.cost, 0),
  };
}

/** An old rollback event: its step found again, and recorded on it. */
async function oldStep(
  events: Collection<Event>,
  rollbacks: Collection<Rollback>,
  event: Event,
  undone: Set<number>,
): Promise<Step> {
  const [, id, i] = /^rollback:(.*):(\d+)$/.exec(event.opId ?? '') ?? [];
  const plan = id ? await rollbacks.findOne({ _id: id }) : null;
  const px = plan?.pixels[Number(i)];
  const step =
    plan && px ? await findStep(events, plan.target, px, undone) : { restores: 0, undoes: [], cost: 0 };
  await events.updateOne(
    { _id: event._id },
    {
      $set: {
        restores: step.restores,
        ...(step.paintedAt ? { paintedAt: step.paintedAt } : {}),
        undoes: { painter: plan?.target ?? '', revisions: step.undoes },
      },
    },
  );
  return step;
}

/** The step an old rollback took on one pixel, found from the history (see the migration). */
async function findStep(
  events: Collection<Event>,
  target: string,
  px: OldPixel,
  undone: Set<number>,
): Promise<Step> {
  const theirs = await events
    .find({ x: px.x, y: px.y, kind: 'place', owner: target, _id: { $lte: px.seenRevision } })
    .sort({ _id: -1 })
    .toArray();
  for (const [n, first] of theirs.entries()) {
    const before = await original(events, await eventBefore(events, first));
    if ((before?.color ?? BLANK) !== px.color || (before?.owner ?? null) !== (px.owner || null)) continue;
    const run = theirs.slice(0, n + 1).filter((e) => !undone.has(e._id));
    return {
      restores: before?._id ?? 0,
      ...(before ? { paintedAt: before.at } : {}),
      undoes: run.map((e) => e._id),
      cost: run.reduce((sum, e) => sum + e.cost, 0),
    };
  }
  return { restores: 0, undoes: [], cost: 0 };
}

function eventBefore(events: Collection<Event>, event: Event): Promise<Event | null> {
  return events
    .find({ x: event.x, y: event.y, kind: { $ne: 'void' }, _id: { $lt: event._id } })
    .sort({ _id: -1 })
    .limit(1)
    .next();
}

/** The placement whose state an event shows (a rollback's already recorded: the one it put back). */
async function original(events: Collection<Event>, event: Event | null): Promise<Event | null> {
  if (event?.kind !== 'rollback') return event;
  return event.restores ? events.findOne({ _id: event.restores }) : null;
}
