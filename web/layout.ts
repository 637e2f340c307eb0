import { $, view } from './view.js';

/**
 * Keeps `--bar-h` and `--sheet-h` at the header's and the bottom sheet's heights, so on a
 * phone the canvas fills exactly the screen between them (style.css) whatever wraps.
 */
export function trackLayout(): void {
  const root = document.documentElement.style;
  const bar = $('bar');
  const measure = () => {
    root.setProperty('--bar-h', `${bar.offsetHeight}px`);
    root.setProperty('--sheet-h', `${view.sheet.offsetHeight}px`);
  };
  new ResizeObserver(measure).observe(bar);
  new ResizeObserver(measure).observe(view.sheet);
  measure();
}
