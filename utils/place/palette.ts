/**
 * The canvas's 32 colours: r/place's 2022 palette, which the brief's canvas follows. A pixel
 * stores the index; members may name a colour by name, hex or index.
 */
export const PALETTE = [
  { name: 'burgundy', hex: '#6D001A' },
  { name: 'dark red', hex: '#BE0039' },
  { name: 'red', hex: '#FF4500' },
  { name: 'orange', hex: '#FFA800' },
  { name: 'yellow', hex: '#FFD635' },
  { name: 'pale yellow', hex: '#FFF8B8' },
  { name: 'dark green', hex: '#00A368' },
  { name: 'green', hex: '#00CC78' },
  { name: 'light green', hex: '#7EED56' },
  { name: 'dark teal', hex: '#00756F' },
  { name: 'teal', hex: '#009EAA' },
  { name: 'light teal', hex: '#00CCC0' },
  { name: 'dark blue', hex: '#2450A4' },
  { name: 'blue', hex: '#3690EA' },
  { name: 'light blue', hex: '#51E9F4' },
  { name: 'indigo', hex: '#493AC1' },
  { name: 'periwinkle', hex: '#6A5CFF' },
  { name: 'lavender', hex: '#94B3FF' },
  { name: 'dark purple', hex: '#811E9F' },
  { name: 'purple', hex: '#B44AC0' },
  { name: 'pale purple', hex: '#E4ABFF' },
  { name: 'magenta', hex: '#DE107F' },
  { name: 'pink', hex: '#FF3881' },
  { name: 'light pink', hex: '#FF99AA' },
  { name: 'dark brown', hex: '#6D482F' },
  { name: 'brown', hex: '#9C6926' },
  { name: 'beige', hex: '#FFB470' },
  { name: 'black', hex: '#000000' },
  { name: 'dark gray', hex: '#515252' },
  { name: 'gray', hex: '#898D90' },
  { name: 'light gray', hex: '#D4D7D9' },
  { name: 'white', hex: '#FFFFFF' },
] as const;

/** The colour of a pixel nobody has set. */
export const BLANK = PALETTE.length - 1;

/** A colour by index (`15`), hex (`#3690ea`, `3690EA`) or name (`blue`, `dark-blue`); null if none. */
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
  const name = t.replace(/[-_]/g, ' ').replace(/\s+/g, ' ');
  const byName = PALETTE.findIndex((c) => c.name === name);
  return byName >= 0 ? byName : null;
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
