import { colourName, t } from './i18n.js';
import { state } from './state.js';
import type { Colour } from './types.js';
import { view } from './view.js';

export function buildPalette(palette: Colour[]): void {
  palette.forEach((c, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'swatch';
    b.style.background = c.hex;
    b.setAttribute('role', 'radio');
    b.setAttribute('aria-label', colourLabel(i));
    b.title = colourLabel(i);
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

/** A palette colour in the page's language: `blue`, `Blau`. */
export function colourOf(index: number): string {
  const c = state.board?.palette[index];
  return c ? colourName(c.name) : String(index);
}

/** A palette colour with its hex code: `blue (#3690EA)`, `Blau (#3690EA)`. */
export function colourLabel(index: number): string {
  const c = state.board?.palette[index];
  return c ? t('colour', { name: colourName(c.name), hex: c.hex }) : String(index);
}

export function updatePlaceButton(): void {
  view.place.disabled = !state.selected || !state.me;
  view.place.textContent = state.me
    ? t('paint.button', { colour: colourOf(state.colour) })
    : t('paint.signIn');
}
