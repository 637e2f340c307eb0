import { PALETTE } from '../../../utils/place/palette.js';
import { colourName, dateTime, number, points, t } from '../../i18n.js';
import { card, field, h, option, table } from '../dom.js';
import { outcome, submitOnce } from '../forms.js';
import { get, newKey, post, query } from '../http.js';
import { picker } from '../picker.js';
import type { Me } from '../types.js';

interface HistoryEntry {
  kind?: 'placement' | 'rollback';
  revision: number;
  x: number;
  y: number;
  color_index: number;
  before_color_index: number | null;
  owner: string | null;
  owner_name: string | null;
  at: string;
  rolled_back?: boolean;
}
interface Plan {
  id: string;
  member: string;
  member_name: string | null;
  pixels: number;
  placements: number;
  refund: number;
  painted: number;
}
interface Applied {
  restored: number;
  skipped: number;
  refunded: number;
}

/** A colour as a swatch and its name in the page's language. */
function colour(index: number | null): HTMLElement {
  if (index === null) return h('span', { class: 'note' }, t('portal.canvas.unpainted'));
  const c = PALETTE[index];
  if (!c) return h('span', {}, String(index));
  return h('span', {}, h('span', { class: 'swatch', style: `background:${c.hex}` }), colourName(c.name));
}

/** Four number inputs for an area's corners (all or none). */
function areaInputs(prefix: string) {
  const corner = (name: string) =>
    h('input', {
      type: 'number',
      name: `${prefix}-${name}`,
      min: 0,
      step: 1,
      inputmode: 'numeric',
      class: 'corner',
    });
  const inputs = { x1: corner('x1'), y1: corner('y1'), x2: corner('x2'), y2: corner('y2') };
  const read = () => {
    const values = Object.entries(inputs).map(([k, el]) => [k, el.value.trim()] as const);
    if (values.every(([, v]) => v === '')) return {};
    return Object.fromEntries(values.map(([k, v]) => [k, Number(v)]));
  };
  const fields = h(
    'fieldset',
    { class: 'area' },
    h('legend', {}, t('portal.canvas.area')),
    ...Object.entries(inputs).map(([k, el]) => field(k, el)),
  );
  return { fields, read };
}

/**
 * The canvas's moderation: who painted what, where and when (an area or a member, newest first);
 * for admins, a rollback of a member's pixels with a before/after preview, applied with or
 * without a refund, as `/admin place rollback` does; and the public log members read.
 */
export async function canvasPage(root: HTMLElement, me: Me): Promise<void> {
  root.replaceChildren(
    historyCard(),
    ...(me.role === 'admin' ? [rollbackCard()] : []),
    h('p', {}, h('a', { href: '/place/moderation' }, t('portal.canvas.publicLog'))),
    // The whole history as a dataset: painters as pseudonyms, forgotten members as nobody.
    h(
      'p',
      {},
      h(
        'a',
        { href: '/api/admin/place/dataset.csv', download: '', id: 'dataset-csv' },
        t('portal.canvas.dataset'),
      ),
    ),
  );
}

function historyCard(): HTMLElement {
  const area = areaInputs('history');
  const member = picker(t('portal.canvas.member'), { workers: false, name: 'history-member' });
  const { wrap, body } = table([
    t('portal.canvas.when'),
    t('portal.canvas.pixel'),
    t('portal.canvas.before'),
    t('portal.canvas.after'),
    t('portal.canvas.who'),
    '',
  ]);
  const more = h('button', { type: 'button', hidden: true }, t('portal.more'));
  const said = outcome();
  let next: string | number | null = null;
  let filters: Record<string, unknown> = {};
  const load = async (fresh: boolean) => {
    const page = await get<{ entries: HistoryEntry[]; next: string | number | null }>(
      `/api/admin/place/history${query({ ...(filters as Record<string, string>), limit: 50, before: fresh ? null : next })}`,
    );
    if (fresh) body.replaceChildren();
    for (const e of page.entries) {
      const note =
        e.kind === 'rollback'
          ? t('portal.canvas.restored')
          : e.rolled_back
            ? t('portal.canvas.rolledBack')
            : '';
      body.append(
        h(
          'tr',
          {},
          h('td', {}, dateTime(e.at)),
          h('td', { class: 'num' }, `(${e.x}, ${e.y})`),
          h('td', {}, colour(e.before_color_index)),
          h('td', {}, colour(e.color_index)),
          h('td', {}, e.owner_name ?? e.owner ?? ''),
          h('td', { class: 'note' }, note),
        ),
      );
    }
    next = page.next;
    more.hidden = next === null;
    if (body.childElementCount === 0) said.ok(t('portal.canvas.noHistory'));
  };
  const form = h(
    'form',
    { class: 'filters', novalidate: true },
    area.fields,
    member.element,
    h('button', { type: 'submit', class: 'primary' }, t('portal.show')),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    said.clear();
    filters = { ...area.read(), member: member.value() };
    try {
      await load(true);
    } catch (error) {
      said.fail(error);
    }
  });
  more.addEventListener('click', () => void load(false).catch((error) => said.fail(error)));
  return card(
    t('portal.canvas.historyTitle'),
    h('p', { class: 'note' }, t('portal.canvas.historyIntro')),
    form,
    said.element,
    wrap,
    more,
  );
}

const SINCE = ['30', '60', '360', '1440', '10080', ''];

function rollbackCard(): HTMLElement {
  const member = picker(t('portal.canvas.member'), { workers: false, name: 'rollback-member' });
  const area = areaInputs('rollback');
  const since = h(
    'select',
    { name: 'since' },
    ...SINCE.map((m) => option(m, t(`portal.canvas.since.${m || 'all'}`), m === '1440')),
  );
  const reason = h('input', { type: 'text', name: 'reason', maxlength: 200 });
  const said = outcome();
  const preview = h('div', { id: 'rollback-preview' });
  const form = h(
    'form',
    { id: 'rollback-form', novalidate: true },
    member.element,
    area.fields,
    field(t('portal.canvas.sinceLabel'), since),
    field(t('portal.canvas.reason'), reason, 'wide'),
    h('button', { type: 'submit', class: 'primary' }, t('portal.canvas.preview')),
  );
  submitOnce(form, async (key) => {
    said.clear();
    preview.replaceChildren();
    if (!member.value()) return said.ok(t('portal.grants.pickFirst'));
    try {
      const body = {
        member: member.value(),
        ...area.read(),
        ...(since.value ? { since_minutes: Number(since.value) } : {}),
        ...(reason.value.trim() ? { reason: reason.value.trim() } : {}),
      };
      const plan = await post<Plan>('/api/admin/place/rollbacks', body, key);
      if (plan.pixels === 0)
        return said.ok(
          t('portal.canvas.nothing', { name: plan.member_name ?? plan.member, count: plan.painted }),
        );
      preview.replaceChildren(planView(plan, said));
    } catch (error) {
      said.fail(error);
    }
  });
  return card(
    t('portal.canvas.rollbackTitle'),
    h('p', { class: 'note' }, t('portal.canvas.rollbackIntro')),
    form,
    said.element,
    preview,
  );
}

function planView(plan: Plan, said: ReturnType<typeof outcome>): HTMLElement {
  const image = (side: 'before' | 'after') =>
    h(
      'figure',
      {},
      h('img', {
        src: `/api/admin/place/rollbacks/${encodeURIComponent(plan.id)}/preview.png?side=${side}`,
        alt: t(`portal.canvas.${side}Alt`),
      }),
      h('figcaption', { class: 'note' }, t(`portal.canvas.${side}`)),
    );
  const buttons = h('div', { class: 'actions' });
  const key = newKey();
  const act = (action: 'apply' | 'refund' | 'cancel', label: string, className: string) => {
    const b = h('button', { type: 'button', class: className, 'data-action': action }, label);
    b.addEventListener('click', async () => {
      for (const other of buttons.querySelectorAll('button')) other.disabled = true;
      try {
        const r = await post<Applied>(
          `/api/admin/place/rollbacks/${encodeURIComponent(plan.id)}`,
          { action },
          `${key}-${action}`,
        );
        said.ok(
          action === 'cancel'
            ? t('portal.canvas.cancelled')
            : t('portal.canvas.done', { count: r.restored, skipped: r.skipped, refund: points(r.refunded) }),
        );
        buttons.remove();
      } catch (error) {
        for (const other of buttons.querySelectorAll('button')) other.disabled = false;
        said.fail(error);
      }
    });
    return b;
  };
  buttons.append(
    act('apply', t('portal.canvas.apply'), 'danger'),
    act('refund', t('portal.canvas.applyRefund'), 'danger'),
    act('cancel', t('portal.canvas.cancel'), ''),
  );
  const summary = t('portal.canvas.plan', {
    name: plan.member_name ?? plan.member,
    count: plan.pixels,
    placements: number(plan.placements),
    refund: points(plan.refund),
  });
  return h(
    'div',
    {},
    h('p', {}, summary),
    h('div', { class: 'preview' }, image('before'), image('after')),
    buttons,
  );
}
