import { MILLI_PER_POINT } from '../amounts.js';

/**
 * The brief's reward figures, in milli-points so nothing is lost to rounding (PRODUCT.md §3).
 * Scores are hundredths of a percent: one score point (1.00) = 100 hundredths.
 */
export interface RewardSettings {
  /** Points per 1.00 score point (`place_points_per_score`, 100). */
  pointsPerScore: number;
  /** Points per drawn tip (`place_draw_points`, 25); 0: no draw rewards. */
  drawPoints: number;
  /** 1: the draw reward is multiplied by the path's weight; 0: never (`place_draw_beacon_multiplier`). */
  drawBeaconMultiplier: 0 | 1;
  /** Points per interval of active time (`place_time_points`, 20). */
  timePoints: number;
  intervalMs: number;
  maxGapMs: number;
}

/** An improvement of a personal best, in hundredths, as milli-points: 0.03 → exactly 3 points. */
export function progressReward(deltaHundredths: number, s: Pick<RewardSettings, 'pointsPerScore'>): number {
  if (deltaHundredths <= 0) return 0;
  return (deltaHundredths * s.pointsPerScore * MILLI_PER_POINT) / 100;
}

/** A drawn tip's reward, and the multiplier applied (the path's weight, or 1). */
export function drawReward(
  pathWeight: number,
  s: Pick<RewardSettings, 'drawPoints' | 'drawBeaconMultiplier'>,
): { milli: number; multiplier: number } {
  const multiplier = s.drawBeaconMultiplier === 1 ? pathWeight : 1;
  return { milli: s.drawPoints * multiplier * MILLI_PER_POINT, multiplier };
}

/**
 * Active time of one identity, in this process's memory only: the time between two
 * consecutive valid hunt requests counts if the gap is at most `maxGapMs`; every full
 * interval is paid, the unpaid remainder stays here (a request that completes no interval
 * writes nothing), so a restart loses at most one incomplete interval and nothing is ever
 * filled in. `record` returns the intervals the request completed, and the span they cover.
 */
export class ActiveTime {
  readonly #last = new Map<string, { at: number; carried: number }>();

  record(
    identity: string,
    at: number,
    s: Pick<RewardSettings, 'intervalMs' | 'maxGapMs'>,
  ): { intervals: number; from: number; to: number } {
    const last = this.#last.get(identity);
    let carried = last?.carried ?? 0;
    if (last && at - last.at <= s.maxGapMs && at > last.at) carried += at - last.at;
    const intervals = Math.floor(carried / s.intervalMs);
    carried -= intervals * s.intervalMs;
    this.#last.set(identity, { at, carried });
    return { intervals, from: at - carried - intervals * s.intervalMs, to: at - carried };
  }
}
