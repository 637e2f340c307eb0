import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { MILLI_PER_POINT } from '../money/amounts.js';
import { drawReward, progressReward } from './rewards.js';
import {
  distances,
  FULL_SCORE,
  MAX_WEIGHT,
  score,
  WEIGHTS,
  WORKED_EXAMPLE,
  ZERO_SCORE_DISTANCE,
} from './scoring.js';

/**
 * What a member needs to know about the hunt, as numbers: the task, how a tip is scored (with
 * the worked example computed by the real scoring), the draw and what each reward pays under
 * the settings as they are now. The words are the commands' (`commands/hunt/guide.ts`).
 */
export interface HuntFacts {
  weights: number;
  max: number;
  /** Total distance at which a tip scores 0. */
  zeroAt: number;
  /** Hundredths of a percent one step off costs (about). */
  perStep: number;
  example: { target: readonly number[]; tip: readonly number[]; offs: number[]; off: number; score: number };
  /** Seconds between two draws, and how many tips each draw takes. */
  drawEverySeconds: number;
  drawsPerDraw: number;
  /** Milli-points of a drawn tip, and of one on the bonus path. */
  drawMilli: number;
  boostedDrawMilli: number;
  /** Milli-points per 1.00 % a personal best improves, and what the example pays as a first best. */
  perPercentMilli: number;
  exampleBestMilli: number;
  bonusPath: { on: boolean; paths: number; weight: number };
  time: { milli: number; intervalSeconds: number; maxGapSeconds: number };
}

export async function huntFacts(config: RuntimeConfig): Promise<HuntFacts> {
  const [perScore, drawPoints, multiplied, timePoints, interval, maxGap, every, draws, on, paths, weight] =
    await Promise.all([
      config.get('place_points_per_score'),
      config.get('place_draw_points'),
      config.get('place_draw_beacon_multiplier'),
      config.get('place_time_points'),
      config.get('place_time_interval_sec'),
      config.get('place_time_max_gap_sec'),
      config.get('hunt_window_s'),
      config.get('hunt_draws_per_window'),
      config.get('hunt_beacon_mode'),
      config.get('hunt_paths'),
      config.get('beacon_bonus_weight'),
    ]);
  const draw = { drawPoints, drawBonusPathMultiplier: multiplied === 1 ? (1 as const) : (0 as const) };
  const offs = distances(WORKED_EXAMPLE.tip, WORKED_EXAMPLE.target);
  const exampleScore = score(WORKED_EXAMPLE.tip, WORKED_EXAMPLE.target);
  return {
    weights: WEIGHTS,
    max: MAX_WEIGHT,
    zeroAt: ZERO_SCORE_DISTANCE,
    perStep: Math.round(FULL_SCORE / ZERO_SCORE_DISTANCE),
    example: {
      ...WORKED_EXAMPLE,
      offs,
      off: offs.reduce((sum, d) => sum + d, 0),
      score: exampleScore,
    },
    drawEverySeconds: every,
    drawsPerDraw: draws,
    drawMilli: drawReward(1, draw).milli,
    boostedDrawMilli: drawReward(weight, draw).milli,
    perPercentMilli: progressReward(100, { pointsPerScore: perScore }),
    exampleBestMilli: progressReward(exampleScore, { pointsPerScore: perScore }),
    bonusPath: { on, paths, weight },
    time: { milli: timePoints * MILLI_PER_POINT, intervalSeconds: interval, maxGapSeconds: maxGap },
  };
}
