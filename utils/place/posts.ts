import type { Clock } from '../../src/clock.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import type { Scheduler } from '../../src/scheduler/scheduler.js';
import type { CanvasDoc, PlaceStore } from './placeStore.js';

export const POST_TASK = 'place.post';

interface PostDeps {
  store: PlaceStore;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  /** The canvas as it is (the last post's revision and time). */
  canvas(): Promise<CanvasDoc>;
  /** Moves the watermark; returns it (a post shows settled revisions only). */
  advance(): Promise<number>;
}

/** The community post's side of the canvas: its timer, what it shows, and the record that it went out. */
export class PlacePosts {
  constructor(private readonly deps: PostDeps) {}

  /**
   * The community post's timer: one durable task per interval (`place_post_interval_min`),
   * due at the interval's end. The scheduler's lease runs each in exactly one process, also
   * when sharded; each run schedules the next, and a placement schedules it when none is.
   */
  async schedule(now: Date = this.deps.clock.now()): Promise<void> {
    const intervalMs = (await this.deps.runtimeConfig.get('place_post_interval_min')) * 60_000;
    const bucket = Math.floor(now.getTime() / intervalMs);
    await this.deps.scheduler.schedule({
      id: `${POST_TASK}:${intervalMs}:${bucket}`,
      kind: POST_TASK,
      dueAt: new Date((bucket + 1) * intervalMs),
      payload: { bucket },
    });
  }

  /** What the next community post shows: the revisions since the last post, or null when nothing changed. */
  async report(): Promise<{
    from: number;
    to: number;
    since: Date | null;
    count: number;
    painters: number;
    top: { owner: string; count: number }[];
  } | null> {
    const to = await this.deps.advance();
    const canvas = await this.deps.canvas();
    const from = canvas.postedRevision ?? 0;
    if (to <= from) return null;
    return { from, to, since: canvas.postedAt ?? null, ...(await this.deps.store.period(from, to)) };
  }

  markPosted(from: number, to: number): Promise<boolean> {
    return this.deps.store.markPosted(from, to, this.deps.clock.now());
  }
}
