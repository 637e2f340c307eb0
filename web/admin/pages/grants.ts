import { number, points, t } from '../../i18n.js';
import { card, field, h, option } from '../dom.js';
import { outcome, submitOnce } from '../forms.js';
import { post } from '../http.js';
import { picker } from '../picker.js';
import type { Me } from '../types.js';

type Action = 'points.grant' | 'points.clawback' | 'cookies.grant' | 'cookies.clawback';

interface Granted {
  owner: string;
  owner_name: string | null;
  points: number;
  balance: number;
}
interface Taken {
  member: string;
  asked: number;
  taken: number;
  balance: number;
}

/**
 * Grants and clawbacks of either currency: Place points to a member or a worker (paid to its
 * owner) to 0.001 in the page's notation, Cookies (admins grant); a clawback takes at most the
 * free balance and says what it took. One grant per click, whatever the clicks.
 */
export async function grantsPage(root: HTMLElement, me: Me): Promise<void> {
  const action = h(
    'select',
    { name: 'action' },
    option('points.grant', t('portal.grants.actions.pointsGrant')),
    option('points.clawback', t('portal.grants.actions.pointsClawback')),
    me.role === 'admin' ? option('cookies.grant', t('portal.grants.actions.cookiesGrant')) : null,
    option('cookies.clawback', t('portal.grants.actions.cookiesClawback')),
  );
  const who = picker(t('portal.grants.who'), { workers: true, name: 'grant-target' });
  const amount = h('input', {
    name: 'amount',
    type: 'text',
    inputmode: 'decimal',
    required: true,
    autocomplete: 'off',
  });
  const reason = h('input', { name: 'reason', type: 'text', maxlength: 200 });
  const hint = h('p', { class: 'note' });
  const said = outcome();
  const form = h(
    'form',
    { id: 'grant-form', novalidate: true },
    field(t('portal.grants.action'), action),
    who.element,
    field(t('portal.grants.amount'), amount),
    field(t('portal.grants.reason'), reason, 'wide'),
    h('button', { type: 'submit', class: 'primary' }, t('portal.grants.submit')),
  );
  const explain = () => {
    const chosen = action.value as Action;
    const cookies = chosen.startsWith('cookies');
    amount.placeholder = cookies ? '100' : number(0.001);
    amount.inputMode = cookies ? 'numeric' : 'decimal';
    hint.textContent = t(
      cookies
        ? 'portal.grants.hintCookies'
        : chosen === 'points.grant'
          ? 'portal.grants.hintPoints'
          : 'portal.grants.hintClawback',
    );
  };
  action.addEventListener('change', explain);
  explain();
  submitOnce(form, async (key) => {
    said.clear();
    const target = who.value();
    if (!target) return said.ok(t('portal.grants.pickFirst'));
    const chosen = action.value as Action;
    try {
      said.ok(await act(chosen, target, amount.value.trim(), reason.value.trim(), key));
    } catch (error) {
      said.fail(error);
    }
  });
  root.replaceChildren(
    card(
      t('portal.grants.title'),
      h('p', { class: 'note' }, t('portal.grants.intro')),
      hint,
      form,
      said.element,
    ),
  );
}

async function act(
  action: Action,
  target: string,
  amount: string,
  reason: string,
  key: string,
): Promise<string> {
  if (action === 'points.grant') {
    const r = await post<Granted>(
      '/api/admin/place/points',
      { target_client_id: target, points: amount, reason },
      key,
    );
    const name = r.owner_name ?? r.owner;
    return t(r.owner === target ? 'portal.grants.pointsGranted' : 'portal.grants.pointsGrantedWorker', {
      amount: points(r.points),
      name,
      worker: target,
      balance: points(r.balance),
    });
  }
  if (action === 'points.clawback') {
    const r = await post<Taken>('/api/admin/place/clawback', { member: target, points: amount, reason }, key);
    return t('portal.grants.pointsTaken', {
      taken: points(r.taken),
      asked: points(r.asked),
      balance: points(r.balance),
    });
  }
  const cookies = Number(amount);
  if (!/^\d{1,16}$/.test(amount) || cookies < 1) throw new Error(t('portal.grants.badCookies'));
  if (action === 'cookies.grant') {
    const r = await post<{ balance: number }>(
      '/api/admin/cookies/grant',
      { member: target, amount: cookies, reason },
      key,
    );
    return t('portal.grants.cookiesGranted', { amount: number(cookies), balance: number(r.balance) });
  }
  const r = await post<Taken>(
    '/api/admin/cookies/clawback',
    { member: target, amount: cookies, reason },
    key,
  );
  return t('portal.grants.cookiesTaken', {
    taken: number(r.taken),
    asked: number(r.asked),
    balance: number(r.balance),
  });
}
