import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/rng.js';
import { weightedDraw } from '../../utils/hunt/draw.js';
import {
  ActiveTime,
  claimSpans,
  drawReward,
  type OwnerTime,
  progressReward,
} from '../../utils/hunt/rewards.js';
import { formatScore, parseGuess, score } from '../../utils/hunt/scoring.js';

const DEFAULTS = {
  pointsPerScore: 100,
  drawPoints: 25,
  drawBonusPathMultiplier: 1 as const,
  timePoints: 20,
  intervalMs: 60_000,
  maxGapMs: 120_000,
};

describe('hunt scoring (the documented examples)', () => {
  it('scores closeness in hundredths of a percent', () => {
    expect(score([50, 50, 50, 50, 50, 50, 50, 50], [50, 50, 50, 50, 50, 50, 50, 50])).toBe(10_000);
    expect(score([99, 99, 99, 99, 99, 99, 99, 99], [0, 0, 0, 0, 0, 0, 0, 0])).toBe(0);
    expect(score([12, 18, 30, 40, 55, 60, 70, 80], [10, 20, 30, 40, 50, 60, 70, 80])).toBe(9_659);
    expect(score([40, 40, 40, 40, 40, 40, 40, 40], [0, 0, 0, 0, 0, 0, 0, 0])).toBe(0); // worse than chance
    expect(formatScore(9_659)).toBe('96.59 %');
    expect(formatScore(9_659, 'de')).toBe('96,59 %');
    expect(formatScore(10_000)).toBe('100.00 %');
    expect(formatScore(3)).toBe('0.03 %');
    expect(parseGuess('12, 18 30,40 55,60,70,80')).toEqual([12, 18, 30, 40, 55, 60, 70, 80]);
    expect(parseGuess('1,2,3')).toBeNull();
    expect(parseGuess('1,2,3,4,5,6,7,100')).toBeNull();
  });
});

describe('hunt rewards (the documented figures)', () => {
  it('pays score progress exactly: 0.03 → 3 points, 1.00 → 100 points, nothing for no improvement', () => {
    expect(progressReward(3, DEFAULTS)).toBe(3_000);
    expect(progressReward(100, DEFAULTS)).toBe(100_000);
    expect(progressReward(0, DEFAULTS)).toBe(0);
    expect(progressReward(-5, DEFAULTS)).toBe(0);
  });

  it('pays a drawn tip 25, 50 on the boosted path with weight 2, 25 with multiplier 0, nothing with draw points 0', () => {
    expect(drawReward(1, DEFAULTS)).toEqual({ milli: 25_000, multiplier: 1 });
    expect(drawReward(2, DEFAULTS)).toEqual({ milli: 50_000, multiplier: 2 });
    expect(drawReward(2, { ...DEFAULTS, drawBonusPathMultiplier: 0 })).toEqual({
      milli: 25_000,
      multiplier: 1,
    });
    expect(drawReward(2, { ...DEFAULTS, drawPoints: 0 }).milli).toBe(0);
  });

  it('pays 100 points for 5 minutes with a tip every 50 s, nothing for a 3-minute pause, and keeps what was earned', () => {
    const time = new ActiveTime();
    let owner: OwnerTime = { covered: [], banked: 0 };
    let paid = 0;
    const hunt = (at: number) => {
      const spans = time.record('ann', at, DEFAULTS);
      if (!spans) return 0;
      const claim = claimSpans(owner, spans, DEFAULTS.intervalMs, 0);
      owner = claim;
      return claim.intervals;
    };
    for (let t = 0; t <= 300_000; t += 50_000) paid += hunt(t);
    expect(paid * DEFAULTS.timePoints).toBe(100); // 300 s: five intervals, one pixel at the default cost
    // A 3-minute pause counts nothing; the next 50 s and 50 s make another interval, 40 s kept.
    expect(hunt(480_000)).toBe(0);
    expect(hunt(530_000)).toBe(0);
    expect(hunt(580_000)).toBe(1);
    expect(owner.banked).toBe(40_000);
    // A restart loses at most the incomplete interval: a fresh tracker starts from nothing.
    const restarted = new ActiveTime();
    expect(restarted.record('ann', 600_000, DEFAULTS)).toBeNull();
    expect(restarted.record('ann', 660_000, DEFAULTS)).toEqual([[600_000, 660_000]]);
  });

  it('GIVEN two identities of one owner hunting out of phase THEN the owner is paid for the union of their time, never less than either alone', () => {
    const time = new ActiveTime();
    let owner: OwnerTime = { covered: [], banked: 0 };
    let paid = 0;
    const ping = (identity: string, at: number) => {
      const spans = time.record(identity, at, DEFAULTS);
      if (!spans) return;
      owner = claimSpans(owner, spans, DEFAULTS.intervalMs, 0);
      paid += (owner as ReturnType<typeof claimSpans>).intervals;
    };
    // Ten minutes: the member every 60 s from 0, its worker every 60 s from 30 s.
    for (let t = 0; t <= 600_000; t += 30_000) ping(t % 60_000 === 0 ? 'member' : 'worker', t);
    // The union is 0..600 s: ten intervals; the member alone would have had ten as well.
    expect(paid).toBe(10);
    expect(owner.covered).toEqual([[0, 600_000]]);
    // Overlapping stretches count once: the same ten minutes again pay nothing.
    expect(claimSpans(owner, [[0, 600_000]], DEFAULTS.intervalMs, 0).intervals).toBe(0);
  });
});

describe('the weighted draw', () => {
  it('GIVEN 20,000 seeded windows THEN boosted tips are drawn in proportion to their weight', () => {
    const rng = seededRng('hunt-draw');
    const counts = { boosted: 0, plain: 0 };
    for (let w = 0; w < 20_000; w++) {
      // 2 boosted tips (weight 2) and 6 plain (weight 1); one tip drawn per window.
      const tips = [
        ...Array.from({ length: 2 }, () => ({ weight: 2, boosted: true })),
        ...Array.from({ length: 6 }, () => ({ weight: 1, boosted: false })),
      ];
      const [drawn] = weightedDraw(tips, 1, (min, max) => rng.int(min, max));
      counts[drawn?.boosted ? 'boosted' : 'plain']++;
    }
    // Expected share of a boosted draw: 4 / 10 = 40 %; tolerance ±1.5 points (about 4.3 standard errors).
    expect(counts.boosted / 20_000).toBeGreaterThan(0.385);
    expect(counts.boosted / 20_000).toBeLessThan(0.415);
  });

  it('draws without replacement', () => {
    const rng = seededRng('no-replacement');
    const drawn = weightedDraw(
      Array.from({ length: 5 }, (_, i) => ({ weight: 1, i })),
      5,
      (a, b) => rng.int(a, b),
    );
    expect(drawn.map((d) => d.i).sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
