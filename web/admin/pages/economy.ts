import { number, t } from '../../i18n.js';
import { card, h } from '../dom.js';
import { get } from '../http.js';

interface Economy {
  day: string | null;
  members: number;
  gini: number;
  supply: number;
  vault: number;
  reserve: number;
  week: { faucets: number; sinks: number };
  place: { points_today: number; pixels_today: number };
  supply_rule: string;
}

const REFRESH_MS = 60_000;

/** The economy's health as `/admin economy health` shows it: today's figures and the month's chart, kept current. */
export async function economyPage(root: HTMLElement): Promise<void> {
  const figures = h('div', { class: 'figures', id: 'economy-figures' });
  const rule = h('p', { class: 'note' });
  const chart = h('img', { class: 'chart', alt: t('portal.economy.chartAlt'), width: 1200, height: 900 });
  const updated = h('p', { class: 'note' });
  let shown: string | null = null;
  const refresh = async () => {
    const [e, image] = await Promise.all([
      get<Economy>('/api/admin/economy'),
      fetch('/api/admin/economy.png', { headers: { 'accept-language': document.documentElement.lang } }).then(
        (r) => r.blob(),
      ),
    ]);
    const figure = (label: string, value: string) =>
      h('div', { class: 'figure card' }, h('span', { class: 'note' }, label), h('strong', {}, value));
    figures.replaceChildren(
      figure(t('portal.economy.supply'), number(e.supply)),
      figure(
        t('portal.economy.vault'),
        t('portal.economy.vaultOf', { vault: number(e.vault), reserve: number(e.reserve) }),
      ),
      figure(t('portal.economy.members'), number(e.members)),
      figure(t('portal.economy.gini'), number(Math.round(e.gini * 1000) / 1000)),
      figure(t('portal.economy.faucets'), number(e.week.faucets)),
      figure(t('portal.economy.sinks'), number(e.week.sinks)),
      figure(t('portal.economy.pointsToday'), number(e.place.points_today)),
      figure(t('portal.economy.pixelsToday'), number(e.place.pixels_today)),
    );
    rule.textContent = e.supply_rule;
    if (shown) URL.revokeObjectURL(shown);
    shown = URL.createObjectURL(image);
    chart.src = shown;
    updated.textContent = t('portal.economy.updated', {
      time: new Date().toLocaleTimeString(document.documentElement.lang),
    });
  };
  root.replaceChildren(
    card(t('portal.economy.title'), figures, rule, updated),
    card(t('portal.economy.chart'), chart),
  );
  await refresh();
  setInterval(() => void refresh().catch(() => undefined), REFRESH_MS);
}
