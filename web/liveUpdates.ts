import { loadBoard, paint, showRevision } from './board.js';
import { number, t, time } from './i18n.js';
import { colourOf } from './palette.js';
import { pixelPainted } from './pixelPanel.js';
import { state } from './state.js';
import type { FeedMessage, WireChange } from './types.js';
import { say, text, view } from './view.js';

function addToFeed(change: WireChange, names: Record<string, string>): void {
  const [revision, x, y, colour, owner, at] = change;
  const who = owner === state.me?.client_id ? t('feed.you') : owner ? (names[owner] ?? owner) : null;
  const li = document.createElement('li');
  const dot = text('span', '', 'dot');
  dot.style.background = state.board?.palette[colour]?.hex ?? '#fff';
  const line = { revision: number(revision), x, y, colour: colourOf(colour), who, time: time(at) };
  li.append(dot, text('span', t(who ? 'feed.lineBy' : 'feed.line', line)));
  view.feed.prepend(li);
  while (view.feed.childElementCount > 30) view.feed.lastElementChild?.remove();
}

/** What the page says when the live feed closes (the server's close codes, liveFeed.ts). */
const CLOSED: Record<number, string> = { 1013: 'feed.full', 4029: 'feed.rateLimited', 4008: 'feed.tooSlow' };

let retryMs = 1_000;
export function connect(): void {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}/api/place/ws?after=${state.revision}`);
  socket.addEventListener('open', () => {
    retryMs = 1_000;
  });
  socket.addEventListener('message', async (event) => {
    const message = JSON.parse(String(event.data)) as FeedMessage;
    if (message.type === 'reload') {
      await loadBoard();
      return;
    }
    if (message.type !== 'changes') return;
    const names = message.names ?? {};
    for (const change of message.changes) {
      if (change[0] <= state.revision) continue;
      const [revision, x, y, colour, owner, at] = change;
      paint(x, y, colour);
      addToFeed(change, names);
      const name = owner ? (names[owner] ?? null) : null;
      pixelPainted({ x, y, colour, owner, name, revision, at: new Date(at).toISOString() });
    }
    state.revision = Math.max(state.revision, message.revision);
    showRevision();
    document.body.dataset.revision = String(state.revision);
  });
  socket.addEventListener('close', (event) => {
    // 1013: the server is full; others: a restart or a network change. Reconnect with the
    // last revision: the server sends exactly what was missed.
    const wait = event.code === 1013 ? 10_000 : retryMs;
    if (event.reason) say(t(CLOSED[event.code] ?? (event.code === 1001 ? 'feed.goingAway' : 'feed.paused')));
    retryMs = Math.min(10_000, retryMs * 2);
    setTimeout(connect, wait);
  });
}
