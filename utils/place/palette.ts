import type { Locale } from '../../src/i18n/i18n.js';

/**
 * The canvas's 32 colours: r/place's 2022 palette. A pixel
 * stores the index; members may name a colour by its English or German name, hex or index.
 */
export const PALETTE = [
  { name: 'burgundy', de: 'Burgunderrot', hex: '#6D001A' },
  { name: 'dark red', de: 'Dunkelrot', hex: '#BE0039' },
  { name: 'red', de: 'Rot', hex: '#FF4500' },
  { name: 'orange', de: 'Orange', hex: '#FFA800' },
  { name: 'yellow', de: 'Gelb', hex: '#FFD635' },
  { name: 'pale yellow', de: 'Hellgelb', hex: '#FFF8B8' },
  { name: 'dark green', de: 'Dunkelgrün', hex: '#00A368' },
  { name: 'green', de: 'Grün', hex: '#00CC78' },
  { name: 'light green', de: 'Hellgrün', hex: '#7EED56' },
  { name: 'dark teal', de: 'Dunkeltürkis', hex: '#00756F' },
  { name: 'teal', de: 'Türkis', hex: '#009EAA' },
  { name: 'light teal', de: 'Helltürkis', hex: '#00CCC0' },
  { name: 'dark blue', de: 'Dunkelblau', hex: '#2450A4' },
  { name: 'blue', de: 'Blau', hex: '#3690EA' },
  { name: 'light blue', de: 'Hellblau', hex: '#51E9F4' },
  { name: 'indigo', de: 'Indigo', hex: '#493AC1' },
  { name: 'periwinkle', de: 'Blauviolett', hex: '#6A5CFF' },
  { name: 'lavender', de: 'Lavendel', hex: '#94B3FF' },
  { name: 'dark purple', de: 'Dunkellila', hex: '#811E9F' },
  { name: 'purple', de: 'Lila', hex: '#B44AC0' },
  { name: 'pale purple', de: 'Blasslila', hex: '#E4ABFF' },
  { name: 'magenta', de: 'Magenta', hex: '#DE107F' },
  { name: 'pink', de: 'Pink', hex: '#FF3881' },
  { name: 'light pink', de: 'Rosa', hex: '#FF99AA' },
  { name: 'dark brown', de: 'Dunkelbraun', hex: '#6D482F' },
  { name: 'brown', de: 'Braun', hex: '#9C6926' },
  { name: 'beige', de: 'Beige', hex: '#FFB470' },
  { name: 'black', de: 'Schwarz', hex: '#000000' },
  { name: 'dark gray', de: 'Dunkelgrau', hex: '#515252' },
  { name: 'gray', de: 'Grau', hex: '#898D90' },
  { name: 'light gray', de: 'Hellgrau', hex: '#D4D7D9' },
  { name: 'white', de: 'Weiß', hex: '#FFFFFF' },
] as const;

/** The colour of a pixel nobody has set. */
export const BLANK = PALETTE.length - 1;

/**
 * A colour's name as a member may type it: case, spaces, hyphens, `ß`/`ss` and `ü`/`ue`
 * do not matter (`Dunkel-Türkis`, `dunkeltuerkis`, `weiss`), nor British `grey`.
 */
function nameKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s_-]+/g, '')
    .replace(/ß/g, 'ss')
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/grey/g, 'gray');
}

const BY_NAME = new Map<string, number>(
  PALETTE.flatMap((c, i) => [[nameKey(c.name), i] as const, [nameKey(c.de), i] as const]),
);

/**
 * A colour by index (`15`), hex (`#3690ea`, `3690EA`) or name in either language (`blue`,
 * `dark-blue`, `Blau`, `dunkelblau`, `weiss`); null if none.
 */
export function parseColor(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (/^\d{1,2}$/.test(t)) {
    const index = Number(t);
    return index < PALETTE.length ? index : null;
  }
  const hex = t.replace(/^#/, '');
  if (/^[0-9a-f]{6}$/.test(hex)) {
    const found = PALETTE.findIndex((c) => c.hex.slice(1).toLowerCase() === hex);
    if (found >= 0) return found;
  }
  return BY_NAME.get(nameKey(t)) ?? null;
}

/** A colour's name in a language: `red` / `Rot`. */
export function colorName(index: number, locale: Locale): string {
  const c = PALETTE[index];
  if (!c) return String(index);
  return locale === 'de' ? c.de : c.name;
}

/** Red, green, blue of an index. */
export function rgb(index: number): [number, number, number] {
  const hex = PALETTE[index]?.hex ?? '#FFFFFF';
  return [
    Number.parseInt(hex.slice(1, 3), 16),
    Number.parseInt(hex.slice(3, 5), 16),
    Number.parseInt(hex.slice(5, 7), 16),
  ];
}
