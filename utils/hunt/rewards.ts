import { MILLI_PER_POINT } from '../money/amounts.js';

/**
 * The hunt's reward figures (docs/features.md, "The hunt: earning Place points"), in
 * milli-points so nothing is lost to rounding.
 * Scores are hundredths of a percent: one score point (1.00) = 100 hundredths.
 */
export interface RewardSettings {
  /** Points per 1.00 score point (`place_points_per_score`, 100). */
  pointsPerScore: number;
  /** Points per drawn tip (`place_draw_points`, 25); 0: no draw rewards. */
  drawPoints: number;
  /** 1: the draw reward is multiplied by the path's weight; 0: never (`place_draw_beacon_multiplier`). */
  drawBonusPathMultiplier: 0 | 1;
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
  s: Pick<RewardSettings, 'drawPoints' | 'drawBonusPathMultiplier'>,
): { milli: number; multiplier: number } {
  const multiplier = s.drawBonusPathMultiplier === 1 ? pathWeight : 1;
  return { milli: s.drawPoints * multiplier * MILLI_PER_POINT, multiplier };
}

/** A stretch of active time, [start, end) in ms since 1970. */
export type Span = [number, number];

/** How many stretches an identity keeps unreported at most (many short ones are sent early). */
const MAX_UNREPORTED_SPANS = 32;

/**
 * Active time of one identity, in this process's memory only: the time between two
 * consecutive valid hunt requests counts if the gap is at most `maxGapMs`. The stretches are
 * kept here (a request that completes no interval writes nothing) until they add up to an
 * interval; then `record` hands them over, to be claimed against the owner's time
 * (`claimSpans`). A restart loses at most one incomplete interval; nothing is filled in.
 */
export class ActiveTime {
  readonly #last = new Map<string, { at: number; spans: Span[]; length: number }>();

  /** The identity's stretches once they make at least one interval (else null: nothing to write). */
  record(identity: string, at: number, s: Pick<RewardSettings, 'intervalMs' | 'maxGapMs'>): Span[] | null {
    const last = this.#last.get(identity) ?? { at, spans: [], length: 0 };
    if (at > last.at && at - last.at <= s.maxGapMs) {
      const tail = last.spans[last.spans.length - 1];
      if (tail && tail[1] === last.at) tail[1] = at;
      else last.spans.push([last.at, at]);
      last.length += at - last.at;
    }
    last.at = Math.max(last.at, at);
    this.#last.set(identity, last);
    if (last.length < s.intervalMs && last.spans.length < MAX_UNREPORTED_SPANS) return null;
    const spans = last.spans;
    this.#last.set(identity, { at: last.at, spans: [], length: 0 });
    return spans;
  }
}

/** An owner's active time so far: what is covered (recent stretches, merged) and not yet paid. */
export interface OwnerTime {
  covered: Span[];
  /** Covered time not yet paid as a whole interval (less than one interval after a claim). */
  banked: number;
}

/**
 * Claims stretches of one identity against its owner's time: only time no identity of the
 * owner brought before counts (a member and its workers hunting the same minutes are paid for
 * them once), and what counts is added to the owner's bank, which pays every whole interval.
 * So an owner is paid for the union of all its identities' time, never less than any one of
 * them alone. Stretches before `horizon` are forgotten (and, coming late, count nothing).
 */
export function claimSpans(
  owner: OwnerTime,
  spans: Span[],
  intervalMs: number,
  horizon: number,
): OwnerTime & { intervals: number; added: number } {
  const fresh = spans.map(([a, b]): Span => [Math.max(a, horizon), b]).filter(([a, b]) => b > a);
  const covered = owner.covered.filter(([, b]) => b > horizon);
  const added = fresh.reduce((sum, span) => sum + uncovered(span, covered), 0);
  const merged = mergeSpans([...covered, ...fresh]);
  const banked = owner.banked + added;
  const intervals = Math.floor(banked / intervalMs);
  return { covered: merged, banked: banked - intervals * intervalMs, intervals, added };
}

/** How much of `span` none of `covered` (merged, sorted) holds. */
function uncovered([a, b]: Span, covered: Span[]): number {
  let free = b - a;
  for (const [c, d] of covered) free -= Math.max(0, Math.min(b, d) - Math.max(a, c));
  return free;
}

function mergeSpans(spans: Span[]): Span[] {
  const merged: Span[] = [];
  for (const [a, b] of [...spans].sort((x, y) => x[0] - y[0])) {
    const tail = merged[merged.length - 1];
    if (tail && a <= tail[1]) tail[1] = Math.max(tail[1], b);
    else merged.push([a, b]);
  }
  return merged;
}
