/**
 * The live canvas page (`/place`): the board from `GET /api/public/place`, kept current by
 * the WebSocket `/api/place/ws`; zoom and pan by wheel, drag, pinch and buttons; a pixel's
 * owner on click; painting (signed in) after a confirmation that shows the cost and the wallet.
 */

interface Colour {
  name: string;
  hex: string;
}
interface Board {
  revision: number;
  width: number;
  height: number;
  palette: Colour[];
  pixels: string;
}
type WireChange = [number, number, number, number, string | null, number];
type FeedMessage =
  | { type: 'hello'; revision: number }
  | { type: 'changes'; from: number; revision: number; changes: WireChange[]; names: Record<string, string> }
  | { type: 'reload'; revision: number };
interface Me {
  client_id: string;
  name: string;
  points: number;
  earned: number;
  spent: number;
  placements: number;
  pixel_cost: number;
  affordable_pixels: number;
  workers: { id: string; label: string }[];
  recent_earnings: { kind: string; points: number; source: string; at: string }[];
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const view = {
  viewport: $<HTMLDivElement>('viewport'),
  canvas: $<HTMLCanvasElement>('board'),
  cursor: $<HTMLDivElement>('cursor'),
  coords: $<HTMLOutputElement>('coords'),
  revision: $<HTMLParagraphElement>('revision'),
  account: $<HTMLParagraphElement>('account'),
  palette: $<HTMLDivElement>('palette'),
  pixelInfo: $<HTMLParagraphElement>('pixel-info'),
  place: $<HTMLButtonElement>('place'),
  wallet: $<HTMLDivElement>('wallet'),
  feed: $<HTMLOListElement>('feed'),
  status: $<HTMLParagraphElement>('status'),
  confirm: $<HTMLDialogElement>('confirm'),
  confirmText: $<HTMLParagraphElement>('confirm-text'),
};
const ctx = view.canvas.getContext('2d') as CanvasRenderingContext2D;

const state = {
  board: null as Board | null,
  bytes: new Uint8Array(0),
  rgba: [] as [number, number, number][],
  revision: 0,
  colour: 2,
  selected: null as { x: number; y: number } | null,
  me: null as Me | null,
  zoom: 1,
  panX: 0,
  panY: 0,
};

const number = new Intl.NumberFormat(navigator.language);
const say = (text: string) => {
  view.status.textContent = text;
  if (!text) return;
  setTimeout(() => {
    if (view.status.textContent === text) view.status.textContent = '';
  }, 5_000);
};
const text = (tag: string, content: string, className?: string) => {
  const el = document.createElement(tag);
  el.textContent = content;
  if (className) el.className = className;
  return el;
};

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, { credentials: 'same-origin', ...init });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body?.error?.message ?? `${response.status} ${response.statusText}`);
  return body as T;
}

// --- The board ------------------------------------------------------------------------

async function loadBoard(): Promise<void> {
  const board = await api<Board>('/api/public/place');
  state.board = board;
  state.revision = board.revision;
  state.bytes = Uint8Array.from(atob(board.pixels), (c) => c.charCodeAt(0));
  state.rgba = board.palette.map((c) => [1, 3, 5].map((i) => Number.parseInt(c.hex.slice(i, i + 2), 16))) as [
    number,
    number,
    number,
  ][];
  view.canvas.width = board.width;
  view.canvas.height = board.height;
  const image = ctx.createImageData(board.width, board.height);
  state.bytes.forEach((colour, i) => {
    const [r, g, b] = state.rgba[colour] ?? [255, 255, 255];
    image.data.set([r, g, b, 255], i * 4);
  });
  ctx.putImageData(image, 0, 0);
  if (view.palette.childElementCount === 0) buildPalette(board.palette);
  showRevision();
}

function paint(x: number, y: number, colour: number): void {
  if (!state.board || x >= state.board.width || y >= state.board.height) return;
  state.bytes[y * state.board.width + x] = colour;
  const c = state.board.palette[colour];
  if (!c) return;
  ctx.fillStyle = c.hex;
  ctx.fillRect(x, y, 1, 1);
}

function showRevision(): void {
  view.revision.textContent = `revision ${number.format(state.revision)}`;
}

// --- Zoom and pan ---------------------------------------------------------------------

function apply(): void {
  view.canvas.style.transform = `translate(${state.panX}px, ${state.panY}px) scale(${state.zoom})`;
  const s = state.selected;
  view.cursor.hidden = !s;
  if (s) {
    view.cursor.style.width = `${state.zoom}px`;
    view.cursor.style.height = `${state.zoom}px`;
    view.cursor.style.transform = `translate(${state.panX + s.x * state.zoom}px, ${state.panY + s.y * state.zoom}px)`;
  }
}

function fitToView(): void {
  if (!state.board) return;
  const { clientWidth: w, clientHeight: h } = view.viewport;
  state.zoom = Math.max(1, Math.floor(Math.min(w / state.board.width, h / state.board.height)));
  state.panX = Math.round((w - state.board.width * state.zoom) / 2);
  state.panY = Math.round((h - state.board.height * state.zoom) / 2);
  apply();
}

/** Zooms by `factor` keeping the point (px, py) of the viewport where it is. */
function zoomAt(factor: number, px: number, py: number): void {
  const next = Math.min(64, Math.max(1, Math.round(state.zoom * factor)));
  if (next === state.zoom) return;
  state.panX = px - ((px - state.panX) * next) / state.zoom;
  state.panY = py - ((py - state.panY) * next) / state.zoom;
  state.zoom = next;
  apply();
}

/** The viewport's content origin on screen (inside its border): where pan (0, 0) is. */
function viewportOrigin(): { left: number; top: number } {
  const rect = view.viewport.getBoundingClientRect();
  return { left: rect.left + view.viewport.clientLeft, top: rect.top + view.viewport.clientTop };
}

function pixelAt(clientX: number, clientY: number): { x: number; y: number } | null {
  if (!state.board) return null;
  const o = viewportOrigin();
  const x = Math.floor((clientX - o.left - state.panX) / state.zoom);
  const y = Math.floor((clientY - o.top - state.panY) / state.zoom);
  return x >= 0 && y >= 0 && x < state.board.width && y < state.board.height ? { x, y } : null;
}

const pointers = new Map<number, { x: number; y: number }>();
let dragged = 0;
let pinch: number | null = null;

view.viewport.addEventListener('pointerdown', (e) => {
  view.viewport.setPointerCapture(e.pointerId);
  pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  dragged = 0;
});
view.viewport.addEventListener('pointermove', (e) => {
  const at = pixelAt(e.clientX, e.clientY);
  view.coords.textContent = at ? `(${at.x}, ${at.y})` : '(–, –)';
  const last = pointers.get(e.pointerId);
  if (!last) return;
  pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  if (pointers.size === 2) {
    const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
    const distance = Math.hypot(a.x - b.x, a.y - b.y);
    const o = viewportOrigin();
    if (pinch) zoomAt(distance / pinch, (a.x + b.x) / 2 - o.left, (a.y + b.y) / 2 - o.top);
    pinch = distance;
    dragged += 10;
    return;
  }
  dragged += Math.abs(e.clientX - last.x) + Math.abs(e.clientY - last.y);
  state.panX += e.clientX - last.x;
  state.panY += e.clientY - last.y;
  apply();
});
const release = (e: PointerEvent) => {
  pointers.delete(e.pointerId);
  if (pointers.size < 2) pinch = null;
  if (e.type === 'pointerup' && dragged < 6 && pointers.size === 0) {
    const at = pixelAt(e.clientX, e.clientY);
    if (at) void select(at);
  }
};
view.viewport.addEventListener('pointerup', release);
view.viewport.addEventListener('pointercancel', release);
view.viewport.addEventListener(
  'wheel',
  (e) => {
    e.preventDefault();
    const o = viewportOrigin();
    zoomAt(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - o.left, e.clientY - o.top);
  },
  { passive: false },
);
view.viewport.addEventListener('keydown', (e) => {
  const moves: Record<string, [number, number]> = {
    ArrowLeft: [-1, 0],
    ArrowRight: [1, 0],
    ArrowUp: [0, -1],
    ArrowDown: [0, 1],
  };
  const move = moves[e.key];
  if (move && state.board) {
    e.preventDefault();
    const s = state.selected ?? { x: 0, y: 0 };
    void select({
      x: Math.min(state.board.width - 1, Math.max(0, s.x + move[0])),
      y: Math.min(state.board.height - 1, Math.max(0, s.y + move[1])),
    });
  } else if (e.key === 'Enter' && state.selected) {
    e.preventDefault();
    void askToPlace();
  }
});
const centre = () => [view.viewport.clientWidth / 2, view.viewport.clientHeight / 2] as const;
$('zoom-in').addEventListener('click', () => zoomAt(2, ...centre()));
$('zoom-out').addEventListener('click', () => zoomAt(0.5, ...centre()));
$('zoom-fit').addEventListener('click', fitToView);
window.addEventListener('resize', fitToView);

// --- Palette, pixel info, placing -----------------------------------------------------

function buildPalette(palette: Colour[]): void {
  palette.forEach((c, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'swatch';
    b.style.background = c.hex;
    b.setAttribute('role', 'radio');
    b.setAttribute('aria-label', `${c.name} ${c.hex}`);
    b.title = `${i}: ${c.name} ${c.hex}`;
    b.dataset.index = String(i);
    b.addEventListener('click', () => chooseColour(i));
    view.palette.append(b);
  });
  // Arrow keys move within the palette (one tab stop for the group).
  view.palette.addEventListener('keydown', (e) => {
    // A row holds as many swatches as the layout fits (8 on a desktop, more on a tablet).
    const columns = getComputedStyle(view.palette).gridTemplateColumns.split(' ').length;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    chooseColour((state.colour + step + palette.length) % palette.length, true);
  });
  chooseColour(state.colour);
}

function chooseColour(index: number, focus = false): void {
  state.colour = index;
  for (const b of view.palette.children as HTMLCollectionOf<HTMLButtonElement>) {
    const on = Number(b.dataset.index) === index;
    b.setAttribute('aria-checked', String(on));
    b.tabIndex = on ? 0 : -1;
    if (on && focus) b.focus();
  }
  updatePlaceButton();
}

function colourName(index: number): string {
  const c = state.board?.palette[index];
  return c ? `${c.name} ${c.hex}` : String(index);
}

async function select(at: { x: number; y: number }): Promise<void> {
  state.selected = at;
  apply();
  updatePlaceButton();
  view.pixelInfo.textContent = `(${at.x}, ${at.y}) …`;
  const info = await api<{
    painted: number;
    color_index: number | null;
    owner: string | null;
    owner_name: string | null;
    revision: number | null;
    at: string | null;
  }>(`/api/public/place/pixel?x=${at.x}&y=${at.y}`).catch(() => null);
  if (state.selected !== at) return;
  if (!info || info.painted === 0 || info.color_index === null) {
    view.pixelInfo.textContent = `(${at.x}, ${at.y}) has never been painted.`;
    return;
  }
  const who = info.owner_name ?? info.owner ?? 'nobody';
  const when = info.at ? new Date(info.at).toLocaleString() : '';
  view.pixelInfo.textContent = `(${at.x}, ${at.y}) is ${colourName(info.color_index)}, painted by ${who} at revision ${info.revision} (${when}); painted ${info.painted} time(s).`;
}

function updatePlaceButton(): void {
  view.place.disabled = !state.selected || !state.me;
  view.place.textContent = state.me ? `Paint ${colourName(state.colour)}` : 'Sign in to paint';
}

async function askToPlace(): Promise<void> {
  const at = state.selected;
  const me = state.me;
  if (!at || !me) return;
  view.confirmText.textContent = `Paint (${at.x}, ${at.y}) ${colourName(state.colour)} for ${number.format(me.pixel_cost)} points? You have ${number.format(me.points)} points.`;
  view.confirm.showModal();
  $<HTMLButtonElement>('confirm-ok').focus();
}

view.place.addEventListener('click', () => void askToPlace());
view.confirm.addEventListener('close', async () => {
  const at = state.selected;
  if (view.confirm.returnValue !== 'ok' || !at) return;
  try {
    const placed = await api<{ revision: number; points_left: number | null }>('/api/place/pixel', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ x: at.x, y: at.y, color_index: state.colour }),
    });
    paint(at.x, at.y, state.colour);
    say(`Painted (${at.x}, ${at.y}) at revision ${placed.revision}.`);
    await loadMe();
  } catch (error) {
    say(`Not painted: ${(error as Error).message}`);
  }
});

// --- The signed-in member -------------------------------------------------------------

async function loadMe(): Promise<void> {
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

// --- Live updates ---------------------------------------------------------------------

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
function connect(): void {
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

async function start(): Promise<void> {
  await loadBoard();
  fitToView();
  document.body.dataset.revision = String(state.revision);
  await loadMe();
  connect();
  document.body.dataset.ready = 'true';
}

void start().catch((error) => say(`Could not load the canvas: ${(error as Error).message}`));
