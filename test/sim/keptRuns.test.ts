import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  behavioursDigest,
  type KeptOutcome,
  keptFile,
  keptFor,
  type RunPlan,
  readKept,
  writeKept,
} from '../../sim/keptRuns.js';
import { runsTable } from '../../sim/matrix.js';
import { runPlans } from '../../sim/matrixRuns.js';
import type { Summary } from '../../sim/summary.js';

const plan: RunPlan = {
  agents: 200,
  seed: 2,
  days: 30,
  perStrategy: 4,
  behavioursFile: 'sim/behaviours.json',
  settings: [['games.max_bet', '1000']],
};

function kept(digest: string, overrides: Partial<KeptOutcome> = {}): KeptOutcome {
  const summary = {
    days: 30,
    agents: 200,
    supplyGrowthPctPerDay: 1.2,
    vaultMinOverReserve: 5,
    gini: 0.4,
    strategies: [],
    bestStrategyOverBaseline: 1.1,
    pixelsPerActiveHour: 14,
    cookiesPerHourByPath: new Map([['collect', 120]]),
    violations: 0,
  } satisfies Summary;
  return {
    summary,
    violations: [],
    seconds: 1_500,
    plan,
    behavioursSha256: digest,
    commit: 'abc1234',
    finishedAt: '2026-12-02T12:00:00.000Z',
    ...overrides,
  };
}

describe('a matrix finished over several sittings (sim:economy --reuse)', () => {
  it('GIVEN an outcome kept by an earlier sitting THEN the same plan is taken from it, its Map intact, and no run starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kept-'));
    const digest = await behavioursDigest('sim/behaviours.json');
    await writeKept(keptFile(dir, plan, 'json'), kept(digest));
    const seen: [number, boolean][] = [];
    const outcomes = await runPlans(
      [plan],
      { jobs: 1, dir, reuse: true, behavioursSha256: digest },
      (o, reused) => seen.push([o.plan.seed, reused]),
    );
    expect(seen).toEqual([[2, true]]);
    expect(outcomes[0]?.summary.cookiesPerHourByPath.get('collect')).toBe(120);
    expect(outcomes[0]?.commit).toBe('abc1234');
    // Written whole: no temporary file is left beside it, and no log of a run that never ran.
    expect(readdirSync(dir)).toEqual(['200-seed2-30d.json']);
    const table = runsTable([
      ...outcomes.flatMap((o) => (o ? [o] : [])),
      kept(digest, { dayMs: [61_000, 70_250, 59_500], seconds: 191 }),
    ]);
    // An outcome kept before day times were kept shows none.
    expect(table).toContain('| 200 | 2 | 30 | 1500 s | – | abc1234 | 2026-12-02 12:00 | 0 |');
    expect(table).toContain('| 200 | 2 | 30 | 191 s | 61.0 s → 59.5 s | abc1234 | 2026-12-02 12:00 | 0 |');
  });

  it('GIVEN a kept outcome of another plan, other behaviours or a broken file THEN it is not taken: the run is still to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kept-'));
    const file = keptFile(dir, plan, 'json');
    const digest = await behavioursDigest('sim/behaviours.json');
    await writeKept(file, kept(digest));
    expect(await keptFor(file, plan, digest)).not.toBeNull();
    expect(await keptFor(file, { ...plan, days: 7 }, digest)).toBeNull();
    expect(await keptFor(file, { ...plan, perStrategy: 5 }, digest)).toBeNull();
    expect(await keptFor(file, { ...plan, settings: [] }, digest)).toBeNull();
    expect(await keptFor(file, plan, 'another digest')).toBeNull();
    writeFileSync(file, '{"plan": ');
    expect(await keptFor(file, plan, digest)).toBeNull();
    await expect(readKept(file)).rejects.toThrow();
  });
});
