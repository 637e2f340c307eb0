import type { Translator } from '../../src/i18n/i18n.js';
import type { EconomyPicture } from '../../src/render/economyImage.js';
import { type EconomyDay, type EconomyReport, growthPctPerDay } from './economyHealth.js';

/** The report covers a month; the table sets the last week beside it. */
export const MONTH = 30;
const WEEK = 7;
/** The kinds the flows chart names: the largest by volume over the month. */
const KINDS_SHOWN = 8;

/** Where the supply rule stands (COOKIE_LOGIC.md, "Following the supply"). */
export function supplyLine(
  state: { targetBp: number; growthPct: number | null; ratePct: number; shares: boolean },
  i18n: Translator,
): string {
  const pct = (n: number) =>
    n.toLocaleString(i18n.locale === 'de' ? 'de-DE' : 'en-US', { maximumFractionDigits: 2 });
  if (state.targetBp === 0) return i18n.t('admin:economy.supplyOff');
  if (state.growthPct === null) return i18n.t('admin:economy.supplyUnmeasured', { rate: state.ratePct });
  // As shown (2 decimals, never "-0"): a falling supply shrank, it did not grow by a negative rate.
  const growth = round(state.growthPct, 2) || 0;
  if (growth < 0) {
    return i18n.t('admin:economy.supplyShrinks', {
      shrink: pct(-growth),
      target: pct(state.targetBp / 100),
      rate: state.ratePct,
    });
  }
  return i18n.t(state.shares ? 'admin:economy.supplyShares' : 'admin:economy.supplyPauses', {
    growth: pct(growth),
    target: pct(state.targetBp / 100),
    rate: state.ratePct,
  });
}

/** The report as the image shows it, every text in `i18n`'s language. */
export function economyPicture(report: EconomyReport, i18n: Translator): EconomyPicture {
  const days = report.days;
  const t = (key: string, params?: Record<string, unknown>) => i18n.t(`admin:economy.${key}`, params);
  const week = days.slice(-WEEK);
  const kinds = topKinds(days);
  return {
    numberLocale: i18n.locale === 'de' ? 'de-DE' : 'en-US',
    title: t('title'),
    subtitle: t('subtitle', {
      date: days.at(-1)?.day ?? '',
      count: report.members,
      members: i18n.number(report.members),
      gini: report.gini.toLocaleString(i18n.locale === 'de' ? 'de-DE' : 'en-US', {
        maximumFractionDigits: 3,
      }),
    }),
    table: {
      head: ['', t('lastDays', { count: WEEK }), t('lastDays', { count: MONTH })],
      rows: tableRows(report, week, i18n),
    },
    days: days.map((d) => d.day.slice(5)),
    supply: { title: t('supply'), values: days.map((d) => d.supply) },
    vault: {
      title: t('vault'),
      vaultLabel: t('vaultLabel'),
      reserveLabel: t('reserveLabel'),
      values: days.map((d) => d.vault),
      reserve: report.reserve,
    },
    flows: {
      title: t('flows'),
      weekLabel: t('lastDays', { count: WEEK }),
      monthLabel: t('lastDays', { count: MONTH }),
      kinds: kinds.map((k) => i18n.t(`cookies:kinds.${k.replace('.', '_')}`)),
      week: kinds.map((k) => netOf(week, k)),
      month: kinds.map((k) => netOf(days, k)),
    },
    place: {
      title: t('place'),
      pointsLabel: t('pointsLabel'),
      pixelsLabel: t('pixelsLabel'),
      points: days.map((d) => Math.round(d.placeEarned)),
      pixels: days.map((d) => d.pixels),
    },
  };
}

function tableRows(report: EconomyReport, week: EconomyDay[], i18n: Translator): [string, string, string][] {
  const t = (key: string, params?: Record<string, unknown>) => i18n.t(`admin:economy.${key}`, params);
  const both = (cell: (days: EconomyDay[]) => string): [string, string] => [cell(week), cell(report.days)];
  const growth = (days: EconomyDay[]) => {
    const pct = growthPctPerDay(days[0]?.supply ?? 0, days.at(-1)?.supply ?? 0, days.length - 1);
    return pct === null
      ? '–'
      : t('pctPerDay', { pct: `${pct >= 0 ? '+' : '−'}${i18n.number(Math.abs(round(pct, 2)))}` });
  };
  const lowest = (days: EconomyDay[]) => {
    const min = Math.min(...days.map((d) => d.vault));
    // No reserve set: the vault alone (a multiple of nothing says nothing).
    if (report.reserve <= 0) return i18n.number(min);
    return t('vaultLowest', { vault: i18n.number(min), times: i18n.number(round(min / report.reserve, 1)) });
  };
  const flow = (sign: 1 | -1) => (days: EconomyDay[]) =>
    i18n.number(flowTotal(days, sign > 0 ? 'in' : 'out'));
  const sum = (pick: (d: EconomyDay) => number) => (days: EconomyDay[]) =>
    i18n.number(Math.round(days.reduce((s, d) => s + pick(d), 0)));
  return [
    [
      t('rowSupply'),
      ...both((days) => `${i18n.number(days[0]?.supply ?? 0)} → ${i18n.number(days.at(-1)?.supply ?? 0)}`),
    ],
    [t('rowGrowth'), ...both(growth)],
    [t('rowVault'), ...both(lowest)],
    [t('rowFaucets'), ...both(flow(1))],
    [t('rowSinks'), ...both(flow(-1))],
    [t('rowPoints'), ...both(sum((d) => d.placeEarned))],
    [t('rowPixels'), ...both(sum((d) => d.pixels))],
  ];
}

/** Members' Cookies in (faucets) or out (sinks) over the days, all kinds together. */
export function flowTotal(days: readonly EconomyDay[], side: 'in' | 'out'): number {
  return days.reduce((s, d) => s + [...d.flows.values()].reduce((a, f) => a + f[side], 0), 0);
}

/** The kinds that moved the most Cookies over the days, largest first. */
function topKinds(days: EconomyDay[]): string[] {
  const volume = new Map<string, number>();
  for (const d of days)
    for (const [kind, f] of d.flows) volume.set(kind, (volume.get(kind) ?? 0) + f.in + f.out);
  return [...volume]
    .sort((a, b) => b[1] - a[1])
    .slice(0, KINDS_SHOWN)
    .map(([kind]) => kind);
}

/** A kind's net Cookies for the members over the days: in minus out (a sink is negative). */
function netOf(days: EconomyDay[], kind: string): number {
  return days.reduce((s, d) => s + (d.flows.get(kind)?.in ?? 0) - (d.flows.get(kind)?.out ?? 0), 0);
}

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}
