import { MINUTE_MS } from '../../src/clock.js';
import { inChunks } from '../../src/db/inChunks.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import type { PlaceEconomy } from '../money/placeEconomy.js';
import type { PixelDoc, PixelEventDoc, PlaceStore } from './placeStore.js';

/** Per owner: the placements and milli-points its events spent. */
type OwnerBooks = Map<string, { placements: number; cost: number }>;

/**
 * How far back a placement or a rollback still counts as in flight for the checker: the
 * sweep's grace and two of its rounds. An older one is stuck (its timer failed), and named.
 */
export function inFlightSince(now: Date): Date {
  return new Date(now.getTime() - RECOVERY_GRACE_MS - 2 * MINUTE_MS);
}

/**
 * The invariants of the canvas (`npm run check:invariants`): every wallet's `spent` and
 * `placements` equal the cost and count of its placement events (and, for a member forgotten
 * on request, the points that expired then), and every pixel equals its newest event. From a
 * checkpoint `since`: the pixels changed since (`canvasBooks`).
 */
export async function placeInvariantProblems(
  store: PlaceStore,
  economy: PlaceEconomy,
  now: Date,
  since?: Date,
): Promise<string[]> {
  const { byOwner, problems } = await canvasBooks(store, now, since);
  for (const [owner, books] of byOwner) {
    const wallet = await economy.wallet(owner);
    // Debits that painted nothing: a forgotten member's points expired (utils/privacy/), a clawback.
    const spent =
      wallet.spent === books.cost ? wallet.spent : wallet.spent - (await economy.spentOnNothing(owner));
    if (spent !== books.cost || wallet.placements !== books.placements) {
      // Paid, its event not written yet: a placement in flight, which the sweep finishes.
      const paid = await paidInFlight(store, economy, owner, inFlightSince(now));
      if (spent === books.cost + paid.cost && wallet.placements === books.placements + paid.count) continue;
      problems.push(
        `place wallet ${owner}: spent ${wallet.spent} in ${wallet.placements} placements, its events say ${books.cost} in ${books.placements}`,
      );
    }
  }
  return problems;
}

/** A member's placements paid for and not written yet (in flight), and what they cost. */
async function paidInFlight(
  store: PlaceStore,
  economy: PlaceEconomy,
  owner: string,
  since: Date,
): Promise<{ count: number; cost: number }> {
  let count = 0;
  let cost = 0;
  for (const p of await store.placements.unfinishedOfMember(owner, since)) {
    if ((await store.eventOf(p._id)) || !(await economy.paidForPixel(`place:${p._id}`))) continue;
    count++;
    cost += p.cost;
  }
  return { count, cost };
}

/**
 * What the canvas's history says: per owner, placements and milli-points spent by the events;
 * every set pixel that differs from its newest event; every placement undone by more than one
 * rollback. From a checkpoint `since`, the pixels the events dated since changed, each against
 * its newest event, and no owner totals or undone placements, which only the whole history
 * gives. (An event is dated when its placement was asked for: one asked before `since` and
 * written after it is read through its pixel when a later event touched the pixel, else by
 * the full check.)
 */
async function canvasBooks(
  store: PlaceStore,
  now: Date,
  since?: Date,
): Promise<{ byOwner: OwnerBooks; problems: string[] }> {
  const byOwner: OwnerBooks = new Map();
  const newest = new Map<string, PixelEventDoc>();
  const undone = new Map<number, string>();
  const problems: string[] = [];
  for await (const e of store.eventsSince(since)) {
    newest.set(`${e.x}:${e.y}`, e);
    if (since) continue;
    for (const revision of e.undoes?.revisions ?? []) {
      const first = undone.get(revision);
      if (first) problems.push(`placement ${revision} was undone twice: by ${first} and by ${e.opId}`);
      undone.set(revision, e.opId ?? String(e.revision));
    }
    if (e.kind !== 'place' || !e.owner) continue;
    const owner = byOwner.get(e.owner) ?? { placements: 0, cost: 0 };
    owner.placements++;
    owner.cost += e.cost;
    byOwner.set(e.owner, owner);
  }
  problems.push(...(await pixelProblems(store, newest, now, since)));
  return { byOwner, problems };
}

/** Every pixel that differs from its newest event (one still being written is not a problem). */
async function pixelProblems(
  store: PlaceStore,
  newest: Map<string, PixelEventDoc>,
  now: Date,
  since?: Date,
): Promise<string[]> {
  const problems: string[] = [];
  const seen = new Set<string>();
  // Asked after the events were read: a placement or rollback whose event was read is in
  // flight until its pixel is written (a placement is marked done only after that).
  const inFlight = await inFlightCheck(store, [...newest.values()], inFlightSince(now));
  const compare = async (p: PixelDoc) => {
    seen.add(p._id);
    let e = newest.get(p._id);
    // A newer event dated before `since` (a placement asked before it, written after): the
    // pixel's own newest event is the one to compare with.
    if (since && e && p.revision > e.revision)
      e = (await store.eventBefore(p.x, p.y, Number.MAX_SAFE_INTEGER)) ?? e;
    if (e && e.revision > p.revision && inFlight(e)) return;
    if (!e || e.revision !== p.revision || e.color !== p.color) {
      problems.push(
        `pixel ${p._id} is colour ${p.color} at revision ${p.revision}, its newest event says ${e ? `${e.color} at ${e.revision}` : 'nothing'}`,
      );
    }
  };
  for await (const p of since ? store.pixelsOf([...newest.keys()]) : store.allPixels()) await compare(p);
  for (const [id, e] of newest) {
    if (!seen.has(id) && !inFlight(e))
      problems.push(`pixel ${id} has events (newest ${e.revision}) but no state`);
  }
  return problems;
}

/**
 * Whether an event's pixel may still be on its way: its placement is not finished, or its
 * rollback is being applied. A stopped process's placement is finished by the sweep, its
 * rollback resumed by its timer; a backup's instant catches some the same way. Only those
 * younger than `since` are: an older one is stuck (its timer failed), and the checker names it.
 */
async function inFlightCheck(
  store: PlaceStore,
  events: PixelEventDoc[],
  since: Date,
): Promise<(event: PixelEventDoc) => boolean> {
  const open = new Set<string>();
  const placed = events.filter((e) => e.kind === 'place' && e.opId).map((e) => e.opId as string);
  for (const part of inChunks(placed))
    for (const id of await store.placements.unfinishedOf(part, since)) open.add(id);
  const applying = await store.rollbacks.applyingIds(since);
  return (event) =>
    event.opId !== undefined &&
    (open.has(event.opId) || applying.has(/^rollback:(.*):\d+$/.exec(event.opId)?.[1] ?? ''));
}
