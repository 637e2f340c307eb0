import { api } from './api.js';
import { updatePlaceButton } from './palette.js';
import { state } from './state.js';
import type { Me } from './types.js';
import { number, text, view } from './view.js';

/** The signed-in member (if any): the account line, the wallet and the Paint button. */
export async function loadMe(): Promise<void> {
  const session = await api<{ signed_in: boolean }>('/api/place/session').catch(() => ({ signed_in: false }));
  state.me = session.signed_in ? await api<Me>('/api/place/me').catch(() => null) : null;
  updatePlaceButton();
  const me = state.me;
  view.wallet.replaceChildren();
  view.account.replaceChildren();
  if (!me) {
    view.wallet.append(text('p', 'Run /place web in Discord to sign in here.', 'muted'));
    return;
  }
  view.account.append(text('span', `${me.name} · ${number.format(me.points)} points `));
  const out = text('button', 'Sign out');
  out.addEventListener('click', async () => {
    await api('/api/place/logout', { method: 'POST' }).catch(() => undefined);
    await loadMe();
  });
  view.account.append(out);
  view.wallet.append(
    text(
      'p',
      `${number.format(me.points)} points: ${me.affordable_pixels} pixel(s) at ${number.format(me.pixel_cost)} each. Earned ${number.format(me.earned)}, spent ${number.format(me.spent)} on ${me.placements} pixel(s).`,
    ),
  );
  if (me.workers.length > 0) {
    view.wallet.append(
      text('p', `Workers: ${me.workers.map((w) => `${w.label} (${w.id})`).join(', ')}`, 'muted'),
    );
  }
  const list = document.createElement('ul');
  for (const e of me.recent_earnings) {
    const source = e.source === me.client_id ? '' : ` from ${e.source}`;
    list.append(
      text('li', `+${number.format(e.points)} ${e.kind}${source} · ${new Date(e.at).toLocaleString()}`),
    );
  }
  if (list.childElementCount > 0) view.wallet.append(text('h3', 'Recent earnings'), list);
}
