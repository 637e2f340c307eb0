import { dateTime, points, t } from '../../i18n.js';
import { card, field, h, option, table } from '../dom.js';
import { get, query } from '../http.js';
import { picker } from '../picker.js';

interface Event {
  id: string;
  kind: 'progress' | 'draw' | 'time' | 'admin';
  points: number;
  owner: string;
  owner_name: string | null;
  source: string;
  source_name: string | null;
  multiplier: number | null;
  units: number | null;
  round: number | null;
  moderator: { id: string; name: string | null } | null;
  reason: string | null;
  at: string;
}

const KINDS = ['progress', 'draw', 'time', 'admin'] as const;

/** What a line says beyond its points: the round, the multiplier, or who granted it and why. */
function detail(e: Event): string {
  if (e.kind === 'admin' && e.moderator) {
    const by = e.moderator.name ?? e.moderator.id;
    return e.reason
      ? t('portal.events.grantedWhy', { by, reason: e.reason })
      : t('portal.events.granted', { by });
  }
  if (e.kind === 'progress' && e.round !== null) return t('portal.events.round', { round: e.round });
  if (e.multiplier !== null && e.multiplier !== 1) return `×${e.multiplier}`;
  return '';
}

/**
 * The latest Place points earned, of every kind: score progress, draws, active time and
 * moderators' grants, newest first, with names; by kind and member, a page at a time.
 */
export async function eventsPage(root: HTMLElement): Promise<void> {
  const kind = h(
    'select',
    { name: 'kind' },
    option('', t('portal.events.allKinds')),
    ...KINDS.map((k) => option(k, t(`portal.events.kinds.${k}`))),
  );
  const member = picker(t('portal.events.member'), { workers: false, name: 'events-member' });
  const { wrap, body } = table([
    t('portal.events.when'),
    t('portal.events.kind'),
    t('portal.events.points'),
    t('portal.events.owner'),
    t('portal.events.source'),
    t('portal.events.detail'),
  ]);
  const more = h('button', { type: 'button', hidden: true }, t('portal.more'));
  const empty = h('p', { class: 'note', hidden: true }, t('portal.events.none'));
  let next: string | null = null;

  const load = async (fresh: boolean) => {
    const page = await get<{ events: Event[]; next: string | null }>(
      `/api/admin/place/earnings${query({ limit: 50, kind: kind.value, client_id: member.value(), before: fresh ? null : next })}`,
    );
    if (fresh) body.replaceChildren();
    for (const e of page.events) {
      const source = e.source === e.owner ? '' : (e.source_name ?? e.source);
      body.append(
        h(
          'tr',
          { 'data-kind': e.kind },
          h('td', {}, dateTime(e.at)),
          h('td', {}, t(`portal.events.kinds.${e.kind}`)),
          h('td', { class: 'num' }, points(e.points)),
          h('td', {}, e.owner_name ?? e.owner),
          h('td', {}, source),
          h('td', {}, detail(e)),
        ),
      );
    }
    next = page.next;
    more.hidden = next === null;
    empty.hidden = body.childElementCount > 0;
  };
  const filters = h(
    'form',
    { class: 'filters' },
    field(t('portal.events.kind'), kind),
    member.element,
    h('button', { type: 'submit', class: 'primary' }, t('portal.show')),
  );
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    void load(true);
  });
  more.addEventListener('click', () => void load(false));
  root.replaceChildren(card(t('portal.events.title'), filters, wrap, empty, more));
  await load(true);
}
