import { isPseudonym } from '../src/privacy/pseudonym.js';
import { api } from './api.js';
import { areasAt } from './areas.js';
import { dateTime, number, t } from './i18n.js';
import { colourLabel, colourOf } from './palette.js';
import { state } from './state.js';
import { text, view } from './view.js';

/** A pixel as the panel shows it: who painted it last, in which colour, when, how often. */
interface PixelInfo {
  x: number;
  y: number;
  painted: number;
  color_index: number | null;
  owner: string | null;
  owner_name: string | null;
  revision: number | null;
  at: string | null;
}

/** A placement on the selected pixel, the page's own or anyone's through the live feed. */
export interface Painted {
  x: number;
  y: number;
  colour: number;
  owner: string | null;
  name: string | null;
  revision: number;
  at: string;
}

/** One of the pixel's last changes (`GET /api/public/place/pixel/history`). */
interface PixelChange {
  revision: number;
  kind: 'placement' | 'rollback';
  color_index: number;
  before_color_index: number | null;
  owner: string | null;
  owner_name: string | null;
  at: string;
  rolled_back: boolean;
}

let shown: PixelInfo | null = null;
let lookups = 0;
let historyLookups = 0;
/** The newest revision the shown (or asked) history of the selected pixel includes. */
let historyCovers = 0;

function render(info: PixelInfo): void {
  const { x, y } = info;
  const covering = areasAt(x, y);
  const guarded = covering.length > 0 ? ` ${t('areas.pixel', { names: covering.join(', ') })}` : '';
  if (info.painted === 0 || info.color_index === null || info.revision === null) {
    view.pixelInfo.textContent = t('pixel.never', { x, y }) + guarded;
    return;
  }
  view.pixelInfo.textContent =
    t('pixel.painted', {
      count: info.painted,
      x,
      y,
      colour: colourLabel(info.color_index),
      who: info.owner_name ?? ownerLabel(info.owner),
      revision: number(info.revision),
      at: info.at ? dateTime(info.at) : '',
    }) + guarded;
}

/** Shows the pixel at `at` as the server knows it now (the latest look-up wins). */
export async function showPixel(at: { x: number; y: number }): Promise<void> {
  const lookup = ++lookups;
  shown = null;
  view.pixelInfo.textContent = t('pixel.loading', at);
  historyCovers = 0;
  view.pixelHistory.replaceChildren();
  view.pixelHistory.hidden = true;
  void showHistory(at);
  const info = await api<Omit<PixelInfo, 'x' | 'y'>>(`/api/public/place/pixel?x=${at.x}&y=${at.y}`).catch(
    () => null,
  );
  if (lookup !== lookups) return;
  shown = info
    ? { ...info, x: at.x, y: at.y }
    : {
        x: at.x,
        y: at.y,
        painted: 0,
        color_index: null,
        owner: null,
        owner_name: null,
        revision: null,
        at: null,
      };
  render(shown);
}

/** The panel follows every placement on the selected pixel as soon as the page learns of it. */
export function pixelPainted(p: Painted): void {
  const selected = state.selected;
  if (!selected || selected.x !== p.x || selected.y !== p.y) return;
  // A look-up still on its way may predate this placement: ask again (its history too).
  if (!shown) {
    void showPixel(selected);
    return;
  }
  // The history is the server's: asked again for each placement it does not hold yet.
  if (p.revision > historyCovers) {
    historyCovers = p.revision;
    void showHistory(selected);
  }
  if (shown.revision !== null && p.revision <= shown.revision) return;
  shown = {
    ...shown,
    painted: shown.painted + 1,
    color_index: p.colour,
    owner: p.owner,
    owner_name: p.name,
    revision: p.revision,
    at: p.at,
  };
  render(shown);
}

/** A painter the bot has no name for: "a former member" for one forgotten on request, else their id. */
function ownerLabel(owner: string | null): string {
  if (owner === null) return t('pixel.nobody');
  return isPseudonym(owner) ? t('pixel.formerMember') : owner;
}

/** The pixel's last changes, newest first, as the server knows them now (the latest look-up wins). */
async function showHistory(at: { x: number; y: number }): Promise<void> {
  const lookup = ++historyLookups;
  const answer = await api<{ changes: PixelChange[] }>(
    `/api/public/place/pixel/history?x=${at.x}&y=${at.y}`,
  ).catch(() => null);
  if (lookup !== historyLookups) return;
  const list = view.pixelHistory;
  list.replaceChildren();
  if (!answer) {
    list.append(text('li', t('pixel.history.failed')));
    list.hidden = false;
    return;
  }
  for (const change of answer.changes) list.append(changeLine(change));
  historyCovers = Math.max(historyCovers, answer.changes[0]?.revision ?? 0);
  list.hidden = answer.changes.length === 0;
}

/** `cleo: red → blue · 6/12/2026, 6:30:00 PM`, the new colour's swatch before it. */
function changeLine(change: PixelChange): HTMLLIElement {
  const li = document.createElement('li');
  const dot = text('span', '', 'dot');
  dot.style.background = state.board?.palette[change.color_index]?.hex ?? '#fff';
  const parts = {
    who: change.owner_name ?? painterLabel(change.owner),
    before:
      change.before_color_index === null ? t('pixel.history.blank') : colourOf(change.before_color_index),
    after: colourOf(change.color_index),
    at: dateTime(change.at),
  };
  const line = t(`pixel.history.${change.kind}`, parts);
  li.append(dot, text('span', change.rolled_back ? t('pixel.history.undone', { line }) : line));
  if (change.rolled_back) li.className = 'undone';
  return li;
}

/** A painter in a history line (the subject of its sentence): "a former member", else their id. */
function painterLabel(owner: string | null): string {
  if (owner === null) return t('pixel.history.nobody');
  return isPseudonym(owner) ? t('pixel.history.formerMember') : owner;
}
