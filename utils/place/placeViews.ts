import type { Rng } from '../../src/rng.js';
import type { PlaceBoard } from './board.js';
import { datasetRows } from './dataset.js';
import type { CanvasDoc, PlaceStore } from './placeStore.js';
import { heatCounts } from './views.js';

interface PlaceViewsDeps {
  store: PlaceStore;
  rng: Rng;
  /** The renderer's board, caught up with the changes feed. */
  board(): Promise<PlaceBoard>;
  canvas(): Promise<CanvasDoc>;
}

/** The canvas seen other ways than as it stands: where painting happened, and its history as a dataset. */
export class PlaceViews {
  constructor(private readonly deps: PlaceViewsDeps) {}

  /** The heatmap of the span from `since`: the board, how often each pixel was painted, and the placements. */
  async heat(since: Date): Promise<{ board: PlaceBoard; counts: Uint32Array; placements: number }> {
    const board = await this.deps.board();
    return { board, ...(await heatCounts(board, this.deps.store.eventsSince(since))) };
  }

  /** The canvas's whole history as dataset rows (dataset.ts), oldest first, read as it is sent. */
  async dataset(): Promise<AsyncIterable<string[]>> {
    const canvas = await this.deps.canvas();
    const key = canvas.datasetKey ?? (await this.deps.store.datasetKey(this.deps.rng.secret(32)));
    return datasetRows(key, this.deps.store.eventsSince());
  }
}
