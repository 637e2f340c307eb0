import type { Clock } from '../../src/clock.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import type { CanvasDoc, PixelEventDoc, PlaceStore } from './placeStore.js';

/** How many written revisions one watermark step looks at. */
const WATERMARK_SCAN = 500;

interface WatermarkDeps {
  store: PlaceStore;
  clock: Clock;
  /** The canvas as it is (its counter and its watermark). */
  canvas(): Promise<CanvasDoc>;
}

/**
 * The watermark (`committed`, step 6 of a placement): every revision up to it is settled, so a
 * reader of the changes feed never passes over one still being written; and its recovery, which
 * voids a revision handed out and lost.
 */
export class PlaceWatermark {
  /** Coalesces watermark moves: at most one running, at most one more queued. */
  #advancing: Promise<number> | null = null;
  #advanceAgain = false;

  constructor(private readonly deps: WatermarkDeps) {}

  /** Moves the watermark over every settled revision; returns it. */
  async advance(): Promise<number> {
    for (;;) {
      const canvas = await this.deps.canvas();
      if (canvas.committed >= canvas.revision) return canvas.committed;
      const written = await this.deps.store.writtenIn(canvas.committed, canvas.revision, WATERMARK_SCAN);
      let to = canvas.committed;
      for (const revision of written) {
        if (revision !== to + 1) break;
        to = revision;
      }
      if (to === canvas.committed) return to;
      if (await this.deps.store.commit(canvas.committed, to, this.deps.clock.now())) {
        if (to >= canvas.revision || written.length < WATERMARK_SCAN) return to;
      }
    }
  }

  /** Moves the watermark in the background, coalescing concurrent requests into one run at a time. */
  advanceSoon(): void {
    if (this.#advancing) {
      this.#advanceAgain = true;
      return;
    }
    this.#advancing = this.advance().finally(() => {
      this.#advancing = null;
      if (this.#advanceAgain) {
        this.#advanceAgain = false;
        this.advanceSoon();
      }
    });
    this.#advancing.catch(() => undefined);
  }

  /**
   * Recovery of the watermark: a handed-out revision that no placement holds and that has
   * not been written for longer than the grace is filled with a void event.
   */
  async voidLostRevisions(): Promise<number> {
    let voided = 0;
    for (;;) {
      const committed = await this.advance();
      const canvas = await this.deps.canvas();
      const gap = committed + 1;
      const stale = this.deps.clock.now().getTime() - canvas.committedAt.getTime() >= RECOVERY_GRACE_MS;
      if (gap > canvas.revision || !stale || (await this.deps.store.event(gap))) {
        return voided;
      }
      await this.deps.store.appendEvent(voidEvent(gap, this.deps.clock.now()));
      voided++;
    }
  }

  /** Fills a revision handed out and not used. */
  async voidRevision(revision: number): Promise<void> {
    await this.deps.store.appendEvent(voidEvent(revision, this.deps.clock.now()));
  }
}

/** The filler of a revision handed out and never used. */
function voidEvent(revision: number, at: Date): PixelEventDoc {
  return {
    _id: revision,
    revision,
    kind: 'void',
    x: -1,
    y: -1,
    color: -1,
    owner: null,
    cost: 0,
    at,
  };
}
