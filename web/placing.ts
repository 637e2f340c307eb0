import { api } from './api.js';
import { paint } from './board.js';
import { loadMe } from './member.js';
import { colourName, updatePlaceButton } from './palette.js';
import { state } from './state.js';
import { $, number, say, view } from './view.js';
import { apply } from './zoom.js';

export async function select(at: { x: number; y: number }): Promise<void> {
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

export async function askToPlace(): Promise<void> {
  const at = state.selected;
  const me = state.me;
  if (!at || !me) return;
  view.confirmText.textContent = `Paint (${at.x}, ${at.y}) ${colourName(state.colour)} for ${number.format(me.pixel_cost)} points? You have ${number.format(me.points)} points.`;
  view.confirm.showModal();
  $<HTMLButtonElement>('confirm-ok').focus();
}

/** The Paint button asks first; the confirmation's OK paints the selected pixel. */
export function bindPlacing(): void {
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
}
