import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DayStats } from './dayStats.js';
import { drawCharts } from './reportCharts.js';
import { type ReportAbout, reportLines } from './reportText.js';
import type { SimResult } from './simResult.js';
import type { Summary } from './summary.js';

/**
 * The report: `economy-report.md` and its charts in `dir` (EVE Online's monthly economic
 * report is the model: money in and out by kind, who holds it, what each way of earning pays).
 */
export async function writeReport(
  dir: string,
  result: SimResult,
  summary: Summary,
  about: ReportAbout,
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const growth = dailyGrowth(result.days);
  drawCharts(dir, result, summary, growth);
  const path = join(dir, 'economy-report.md');
  writeFileSync(path, `${reportLines(result, summary, about, growth).join('\n')}\n`);
  return path;
}

/** The members' Cookies' growth in % from the day before; null on the first day or from nothing. */
function dailyGrowth(days: DayStats[]): (number | null)[] {
  return days.map((d, i) => {
    const before = i > 0 ? (days[i - 1]?.supply ?? 0) : 0;
    return before > 0 ? (d.supply / before - 1) * 100 : null;
  });
}
