import { api } from './api.js';
import { dateTime, points, t } from './i18n.js';
import { updatePlaceButton } from './palette.js';
import { state } from './state.js';
import type { Me } from './types.js';
import { text, view } from './view.js';

const KINDS = ['draw', 'time', 'admin', 'progress'];

/** The signed-in member's wallet: what it buys, what was earned and spent, recent earnings. */
function showWallet(me: Me): void {
  const afford = { count: me.affordable_pixels, points: points(me.points), cost: points(me.pixel_cost) };
  view.wallet.append(
    text('p', t('wallet.afford', afford)),
    text(
      'p',
      t('wallet.history', { count: me.placements, earned: points(me.earned), spent: points(me.spent) }),
      'muted',
    ),
  );
  if (me.workers.length > 0) {
    const list = me.workers.map((w) => `${w.label} (${w.id})`).join(', ');
    view.wallet.append(text('p', t('wallet.workers', { list }), 'muted'));
  }
  const list = document.createElement('ul');
  for (const e of me.recent_earnings) {
    const line = {
      points: points(e.points),
      kind: t(`wallet.kinds.${KINDS.includes(e.kind) ? e.kind : 'other'}`),
      source: e.source,
      at: dateTime(e.at),
    };
    list.append(text('li', t(e.source === me.client_id ? 'wallet.earning' : 'wallet.earningFrom', line)));
  }
  if (list.childElementCount > 0) view.wallet.append(text('h3', t('wallet.recent')), list);
}

/** The signed-in member (if any): the account line, the wallet and the Paint button. */
export async function loadMe(): Promise<void> {
  const session = await api<{ signed_in: boolean }>('/api/place/session').catch(() => ({ signed_in: false }));
  state.me = session.signed_in ? await api<Me>('/api/place/me').catch(() => null) : null;
  updatePlaceButton();
  const me = state.me;
  view.wallet.replaceChildren();
  view.account.replaceChildren();
  document.body.dataset.signedIn = String(me !== null);
  if (!me) {
    view.wallet.append(text('p', t('page.signInHint'), 'muted'));
    return;
  }
  view.account.append(text('span', `${t('account', { name: me.name, points: points(me.points) })} `));
  const out = text('button', t('signOut'));
  out.addEventListener('click', async () => {
    await api('/api/place/logout', { method: 'POST' }).catch(() => undefined);
    await loadMe();
  });
  view.account.append(out);
  showWallet(me);
}
