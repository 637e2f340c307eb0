import { loadBoard, paint, showRevision } from './board.js';
import { number, t, time } from './i18n.js';
import { overlayPainted } from './overlays.js';
import { colourOf } from './palette.js';
import { pixelPainted } from './pixelPanel.js';
import { state } from './state.js';
import { templatePainted } from './templates.js';
import type { FeedMessage, WireChange } from './types.js';
import { say, text, view } from './view.js';

/** The newest revision the feed shows a line for. */
let shownUpTo = 0;

function addToFeed(change: WireChange, names: Record<string, string>): void {
  const [revision, x, y, colour, owner, at] = change;
  const who = owner === state.me?.client_id ? t('feed.you') : owner ? (names[owner] ?? owner) : null;
  const li = document.createElement('li');
  const dot = text('span', '', 'dot');
  dot.style.background = state.board?.palette[colour]?.hex ?? '#fff';
  const line = { revision: number(revision), x, y, colour: colourOf(colour), who, time: time(at) };
  li.append(dot, text('span', t(who ? 'feed.lineBy' : 'feed.line', line)));
  view.feed.prepend(li);
  shownUpTo = Math.max(shownUpTo, revision);
  while (view.feed.childElementCount > 30) view.feed.lastElementChild?.remove();
}

/** What the page says when the live feed closes (the server's close codes, liveFeed.ts). */
const CLOSED: Record<number, string> = { 1013: 'feed.full', 4029: 'feed.rateLimited', 4008: 'feed.tooSlow' };

/** How many of the latest placements the feed shows as soon as the page opens. */
export const FEED_ON_LOAD = 15;

let retryMs = 1_000;
/**
 * Follows the canvas live from the revision the page holds. The first connection asks for the
 * last `backlog` placements before it too (the feed's catch-up sends them with the painters'
 * names): they fill the list of recent pixels; the board has them already.
 */
export function connect(backlog = 0): void {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const after = Math.max(0, state.revision - backlog);
  const socket = new WebSocket(`${scheme}://${location.host}/api/place/ws?after=${after}`);
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
      if (change[0] <= state.revision) {
        // From before the board was loaded: a line of the feed, nothing to paint. Lines come
        // in order, so one is never older than the newest line already shown.
        if (change[0] > shownUpTo) addToFeed(change, names);
        continue;
      }
      const [revision, x, y, colour, owner, at] = change;
      paint(x, y, colour);
      addToFeed(change, names);
      const name = owner ? (names[owner] ?? null) : null;
      pixelPainted({ x, y, colour, owner, name, revision, at: new Date(at).toISOString() });
      overlayPainted(x, y);
      templatePainted(x, y);
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
    setTimeout(() => connect(), wait);
  });
}
