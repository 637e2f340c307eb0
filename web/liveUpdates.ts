import { loadBoard, paint, showRevision } from './board.js';
import { state } from './state.js';
import type { FeedMessage, WireChange } from './types.js';
import { say, text, view } from './view.js';

function addToFeed(change: WireChange, names: Record<string, string>): void {
  const [revision, x, y, colour, owner, at] = change;
  const who = owner === state.me?.client_id ? 'you' : owner ? (names[owner] ?? owner) : null;
  const li = document.createElement('li');
  const dot = text('span', '', 'dot');
  dot.style.background = state.board?.palette[colour]?.hex ?? '#fff';
  li.append(
    dot,
    text(
      'span',
      `#${revision} (${x}, ${y}) ${state.board?.palette[colour]?.name ?? colour}${who ? ` by ${who}` : ''} · ${new Date(at).toLocaleTimeString()}`,
    ),
  );
  view.feed.prepend(li);
  while (view.feed.childElementCount > 30) view.feed.lastElementChild?.remove();
}

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
    for (const change of message.changes) {
      if (change[0] <= state.revision) continue;
      paint(change[1], change[2], change[3]);
      addToFeed(change, message.names ?? {});
    }
    state.revision = Math.max(state.revision, message.revision);
    showRevision();
    document.body.dataset.revision = String(state.revision);
  });
  socket.addEventListener('close', (event) => {
    // 1013: the server is full; others: a restart or a network change. Reconnect with the
    // last revision: the server sends exactly what was missed.
    const wait = event.code === 1013 ? 10_000 : retryMs;
    if (event.reason) say(`Live updates paused: ${event.reason}`);
    retryMs = Math.min(10_000, retryMs * 2);
    setTimeout(connect, wait);
  });
}
