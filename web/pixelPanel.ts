import { isPseudonym } from '../src/privacy/pseudonym.js';
import { api } from './api.js';
import { areasAt } from './areas.js';
import { dateTime, number, t } from './i18n.js';
import { colourLabel } from './palette.js';
import { state } from './state.js';
import { view } from './view.js';

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

let shown: PixelInfo | null = null;
let lookups = 0;

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
  // A look-up still on its way may predate this placement: ask again.
  if (!shown) {
    void showPixel(selected);
    return;
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
