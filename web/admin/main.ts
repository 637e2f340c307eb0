/**
 * The moderators' portal (`/admin/<page>`): one page per task, each reading the moderators'
 * API with the member's session; what the member may not do is neither linked nor served (the
 * server checks every request again). It speaks the language the server chose (`<html lang>`).
 */
import { t } from '../i18n.js';
import { h, say } from './dom.js';
import { get } from './http.js';
import { auditPage } from './pages/audit.js';
import { canvasPage } from './pages/canvas.js';
import { economyPage } from './pages/economy.js';
import { eventsPage } from './pages/events.js';
import { grantsPage } from './pages/grants.js';
import { runtimePage } from './pages/runtime.js';
import { sanctionsPage } from './pages/sanctions.js';
import { shopPage } from './pages/shop.js';
import type { Me } from './types.js';

const PAGES: Record<string, (root: HTMLElement, me: Me) => Promise<void>> = {
  runtime: runtimePage,
  grants: grantsPage,
  events: eventsPage,
  economy: economyPage,
  canvas: canvasPage,
  sanctions: sanctionsPage,
  shop: shopPage,
  audit: auditPage,
};

async function start(): Promise<void> {
  const me = await get<Me>('/api/admin/me');
  const account = document.getElementById('account') as HTMLElement;
  account.textContent = t('portal.account', { name: me.name, role: t(`portal.roles.${me.role}`) });
  const current = location.pathname.split('/')[2] ?? '';
  for (const link of document.querySelectorAll<HTMLAnchorElement>('#nav a[data-page]')) {
    link.hidden = link.dataset.access === 'admin' && me.role !== 'admin';
    if (link.dataset.page === current) link.setAttribute('aria-current', 'page');
  }
  const root = document.getElementById('page') as HTMLElement;
  const render = PAGES[current];
  if (render) {
    document.title = `${t(`portal.pages.${current}`)} · ${t('portal.title')}`;
    await render(root, me);
  }
  document.body.dataset.ready = 'true';
}

void start().catch((error: Error) => {
  const root = document.getElementById('page') as HTMLElement;
  root.replaceChildren(h('p', { class: 'error' }, t('portal.failed', { reason: error.message })));
  say(error.message);
});
