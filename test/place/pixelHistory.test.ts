import { describe, expect, it } from 'vitest';
import { AREA_SCAN_REVISIONS, pixelHistory } from '../../utils/place/history.js';
import type { PixelEventDoc } from '../../utils/place/placeStore.js';

/** A history whose area reads find nothing, recording the revision ranges asked for. */
function emptyHistory() {
  const ranges: [number, number][] = [];
  const store = {
    eventBefore: async () => null,
    history: {
      inArea: async (_area: unknown, from: number, before: number) => {
        ranges.push([from, before]);
        return [] as PixelEventDoc[];
      },
      ofPixels: async () => [] as PixelEventDoc[],
      ofMember: async () => [] as PixelEventDoc[],
      undone: async () => false,
    },
  };
  return { store: store as unknown as Parameters<typeof pixelHistory>[0], ranges };
}

describe('an area’s history on a large canvas', () => {
  it('GIVEN an area with nothing in the newest revisions THEN one page reads a bounded range of revisions and says where to read on', async () => {
    const { store, ranges } = emptyHistory();
    const area = { x1: 0, y1: 0, x2: 2047, y2: 2047 };
    const first = await pixelHistory(store, 50_000, { area, limit: 50 });
    expect(first).toEqual({ entries: [], next: 50_001 - AREA_SCAN_REVISIONS });
    const last = await pixelHistory(store, 50_000, { area, limit: 50, before: 15_000 });
    expect(last.next).toBeNull();
    expect(ranges).toEqual([
      [50_001 - AREA_SCAN_REVISIONS, 50_001],
      [1, 15_000],
    ]);
  });
});
