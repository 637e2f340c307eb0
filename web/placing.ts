import { ApiError, api } from './api.js';
import { areasAt } from './areas.js';
import { paint } from './board.js';
import { number, points, t } from './i18n.js';
import { loadMe } from './member.js';
import { colourLabel, updatePlaceButton } from './palette.js';
import { pixelPainted, showPixel } from './pixelPanel.js';
import { state } from './state.js';
import { $, say, view } from './view.js';
import { apply } from './zoom.js';

/** Selects a pixel: the cursor, the readout and the panel show it. */
export async function select(at: { x: number; y: number }): Promise<void> {
  state.selected = at;
  apply();
  updatePlaceButton();
  view.coords.textContent = `(${at.x}, ${at.y})`;
  await showPixel(at);
}

export async function askToPlace(): Promise<void> {
  const at = state.selected;
  const me = state.me;
  if (!at || !me) return;
  const asked = {
    x: at.x,
    y: at.y,
    colour: colourLabel(state.colour),
    cost: points(me.pixel_cost),
    points: points(me.points),
  };
  // The pixel already has the colour (a never-painted one is blank): it would cost and change nothing.
  const width = state.board?.width ?? 0;
  const same = at.x < width && state.bytes[at.y * width + at.x] === state.colour;
  view.confirmText.textContent = same ? t('paint.confirmSame', asked) : t('paint.confirm', asked);
  view.confirm.showModal();
  $<HTMLButtonElement>('confirm-ok').focus();
}

/** Why a paint was refused, in the page's language when the page knows the refusal. */
function refusal(error: unknown): string {
  const me = state.me;
  const code = error instanceof ApiError ? error.code : '';
  const known = [
    'INSUFFICIENT_PLACE_POINTS',
    'RATE_LIMITED',
    'NOT_SIGNED_IN',
    'FEATURE_DISABLED',
    'PIXEL_PROTECTED',
  ];
  if (!known.includes(code)) return (error as Error).message;
  const at = state.selected;
  return t(`paint.errors.${code}`, {
    points: points(me?.points ?? 0),
    cost: points(me?.pixel_cost ?? 0),
    area: at ? areasAt(at.x, at.y).join(', ') : '',
  });
}

/** The Paint button asks first; the confirmation's OK paints the selected pixel. */
export function bindPlacing(): void {
  view.place.addEventListener('click', () => void askToPlace());
  view.confirm.addEventListener('close', async () => {
    const at = state.selected;
    const colour = state.colour;
    if (view.confirm.returnValue !== 'ok' || !at) return;
    try {
      const placed = await api<{ revision: number; points_left: number | null }>('/api/place/pixel', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ x: at.x, y: at.y, color_index: colour }),
      });
      paint(at.x, at.y, colour);
      pixelPainted({
        ...at,
        colour,
        owner: state.me?.client_id ?? null,
        name: state.me?.name ?? null,
        revision: placed.revision,
        at: new Date().toISOString(),
      });
      say(t('paint.done', { x: at.x, y: at.y, revision: number(placed.revision) }));
      await loadMe();
    } catch (error) {
      say(t('paint.failed', { reason: refusal(error) }));
    }
  });
}
