import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBehaviours } from '../../sim/behaviours.js';
import { gini } from '../../sim/gini.js';
import { writeReport } from '../../sim/report.js';
import { runSimulation } from '../../sim/run.js';
import { summarize, summaryLine } from '../../sim/summary.js';

describe('the economy simulation', () => {
  it('GIVEN 3 seeded days of 30 members on the default settings THEN the books balance every day, the vault stays above its reserve and the hunt pays at its designed pace', async () => {
    const behaviours = loadBehaviours('sim/behaviours.json');
    const result = await runSimulation({ behaviours, days: 3, agents: 30, seed: 7 });
    const summary = summarize(result);
    const line = summaryLine(summary);
    console.info(line);

    // Every day was checked, and nothing was minted or lost.
    expect(result.days.map((d) => d.day)).toEqual([1, 2, 3]);
    expect(result.days.flatMap((d) => d.violations)).toEqual([]);
    expect(line).toMatch(/ violations=0$/);
    // Members did what the behaviours say, through the real services.
    for (const action of ['collect', 'hunt tip', 'hunt activity', 'place pixel', 'coinflip', 'steal']) {
      expect(result.actions.get(action) ?? 0, action).toBeGreaterThan(0);
    }
    // The bands that hold on the defaults (ECONOMY.md, "Economy health", lists the open ones).
    expect(summary.vaultMinOverReserve).toBeGreaterThanOrEqual(1);
    // Active time alone pays a pixel in five minutes: a hunter paints at least that often.
    expect(summary.pixelsPerActiveHour).toBeGreaterThanOrEqual(12);
    const timeFarmer = summary.strategies.find((s) => s.strategy === 'time_farmer');
    expect(timeFarmer?.perHour).toBeGreaterThan(1_000);
    expect(timeFarmer?.perHour).toBeLessThanOrEqual(1_200);
    // Only pinging pays less than hunting: active time is a floor, not the best strategy.
    expect(timeFarmer?.ratio).toBeLessThan(1);
    console.info(
      summary.strategies.map((s) => `${s.strategy}/${s.currency} ${s.ratio.toFixed(2)}`).join(', '),
    );

    const dir = mkdtempSync(join(tmpdir(), 'sim-report-'));
    const report = await writeReport(dir, result, summary, {
      seed: 7,
      behavioursFile: 'sim/behaviours.json',
    });
    const text = readFileSync(report, 'utf8');
    expect(text).toContain(line);
    for (const chart of ['supply', 'faucets-sinks', 'vault', 'gini', 'paths', 'place', 'strategies']) {
      expect(text).toContain(`(${chart}.png)`);
      // A real PNG: its signature.
      expect(
        readFileSync(join(dir, `${chart}.png`))
          .subarray(0, 8)
          .toString('hex'),
      ).toBe('89504e470d0a1a0a');
    }
    expect(existsSync(join(dir, 'economy-report.md'))).toBe(true);
  }, 400_000);

  it('GIVEN balances THEN the Gini coefficient is 0 for equal ones and near 1 when one member holds all', () => {
    expect(gini([5, 5, 5, 5])).toBe(0);
    expect(gini([0, 0, 0, 100])).toBeCloseTo(0.75, 5);
    expect(gini([1, 2, 3, 4])).toBeCloseTo(0.25, 5);
    expect(gini([])).toBe(0);
  });
});
