import { inChunks } from '../../src/db/inChunks.js';
import type { PlacementStore } from './placementStore.js';
import type { PixelEventDoc } from './placeStore.js';
import type { RollbackStore } from './rollbackStore.js';

/**
 * Whether an event's pixel may still be on its way: its placement is not finished, or its
 * rollback is being applied. A stopped process's placement is finished by the sweep, its
 * rollback resumed by its timer; a backup's instant catches some the same way. Only those
 * younger than `since` are: an older one is stuck (its timer failed), and the checker names it.
 */
export async function inFlightCheck(
  placements: PlacementStore,
  rollbacks: RollbackStore,
  events: PixelEventDoc[],
  since: Date,
): Promise<(event: PixelEventDoc) => boolean> {
  const open = new Set<string>();
  for (const part of inChunks(
    events.filter((e) => e.kind === 'place' && e.opId).map((e) => e.opId as string),
  ))
    for (const id of await placements.unfinishedOf(part, since)) open.add(id);
  const applying = await rollbacks.applyingIds(since);
  return (event) =>
    event.opId !== undefined &&
    (open.has(event.opId) || applying.has(/^rollback:(.*):\d+$/.exec(event.opId)?.[1] ?? ''));
}
