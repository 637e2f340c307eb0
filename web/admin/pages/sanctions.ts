import { dateTime, t } from '../../i18n.js';
import { card, field, h, option, table } from '../dom.js';
import { outcome, submitOnce } from '../forms.js';
import { get, newKey, post } from '../http.js';
import { picker } from '../picker.js';
import type { Me } from '../types.js';

interface Sanction {
  member: string;
  member_name: string | null;
  scope: 'painting' | 'games' | 'economy';
  until: string | null;
  reason: string;
  by: { id: string; name: string | null };
  at: string;
}

const SCOPES = ['painting', 'games', 'economy'] as const;
/** Moderators ban for up to a week; longer, or for good, is an admin's. */
const DURATIONS = { moderator: ['1h', '6h', '1d', '7d'], admin: ['1h', '6h', '1d', '7d', '4w', 'permanent'] };

const end = (until: string | null) => (until ? dateTime(until) : t('portal.sanctions.permanent'));

const scopeName = (scope: Sanction['scope']) => t(`portal.sanctions.scopes.${scope}`);

/** The bans in force, each with its Lift button; `load` reads them again. */
function bansInForce(): { element: HTMLElement; load(): Promise<void> } {
  const { wrap, body } = table([
    t('portal.sanctions.member'),
    t('portal.sanctions.scope'),
    t('portal.sanctions.until'),
    t('portal.sanctions.reasonColumn'),
    t('portal.sanctions.by'),
    '',
  ]);
  const empty = h('p', { class: 'note', hidden: true }, t('portal.sanctions.none'));
  const said = outcome();
  const load = async () => {
    const { sanctions } = await get<{ sanctions: Sanction[] }>('/api/admin/sanctions');
    body.replaceChildren(...sanctions.map(row));
    empty.hidden = sanctions.length > 0;
  };
  const row = (s: Sanction) => {
    const lift = h('button', { type: 'button' }, t('portal.sanctions.lift'));
    const key = newKey();
    lift.addEventListener('click', async () => {
      lift.disabled = true;
      try {
        await post('/api/admin/sanctions/lift', { member: s.member, scope: s.scope }, key);
        said.ok(
          t('portal.sanctions.lifted', { member: s.member_name ?? s.member, scope: scopeName(s.scope) }),
        );
        await load();
      } catch (error) {
        lift.disabled = false;
        said.fail(error);
      }
    });
    return h(
      'tr',
      { 'data-member': s.member, 'data-scope': s.scope },
      h('td', {}, s.member_name ?? s.member),
      h('td', {}, scopeName(s.scope)),
      h('td', {}, end(s.until)),
      h('td', {}, s.reason),
      h('td', {}, s.by.name ?? s.by.id),
      h('td', {}, lift),
    );
  };
  return { element: card(t('portal.sanctions.inForce'), wrap, empty, said.element), load };
}

/** The ban form: a member, a scope, a length this moderator may give, and the reason the member is told. */
function banForm(me: Me, banned: () => Promise<void>): HTMLElement {
  const member = picker(t('portal.sanctions.member'), { workers: false, name: 'ban-member' });
  const scope = h('select', { name: 'scope' }, ...SCOPES.map((s) => option(s, scopeName(s))));
  const duration = h(
    'select',
    { name: 'duration' },
    ...DURATIONS[me.role].map((d) => option(d, t(`portal.sanctions.durations.${d}`), d === '1d')),
  );
  const reason = h('input', { name: 'reason', type: 'text', maxlength: 200, required: true });
  const said = outcome();
  const form = h(
    'form',
    { id: 'ban-form', novalidate: true },
    member.element,
    field(t('portal.sanctions.scope'), scope),
    field(t('portal.sanctions.duration'), duration),
    field(t('portal.sanctions.reason'), reason, 'wide'),
    h('button', { type: 'submit', class: 'danger' }, t('portal.sanctions.ban')),
  );
  submitOnce(form, async (key) => {
    said.clear();
    if (!member.value()) return said.ok(t('portal.grants.pickFirst'));
    if (!reason.value.trim()) return said.ok(t('portal.sanctions.needReason'));
    try {
      const body = {
        member: member.value(),
        scope: scope.value,
        duration: duration.value,
        reason: reason.value.trim(),
      };
      const r = await post<{ outcome: 'banned' | 'extended' | 'kept'; sanction: Sanction }>(
        '/api/admin/sanctions',
        body,
        key,
      );
      const s = r.sanction;
      const words = { member: s.member_name ?? s.member, scope: scopeName(s.scope), end: end(s.until) };
      said.ok(t(`portal.sanctions.outcomes.${r.outcome}`, words));
      await banned();
    } catch (error) {
      said.fail(error);
    }
  });
  const intro = h('p', { class: 'note' }, t(`portal.sanctions.intro.${me.role}`));
  return card(t('portal.sanctions.title'), intro, form, said.element);
}

/** Bans from painting, games or the whole economy: given with an end and a reason the member is told, listed, lifted. */
export async function sanctionsPage(root: HTMLElement, me: Me): Promise<void> {
  const inForce = bansInForce();
  root.replaceChildren(banForm(me, inForce.load), inForce.element);
  await inForce.load();
}
