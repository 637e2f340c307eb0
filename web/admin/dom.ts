/** Small helpers that build the portal's elements; every text goes in as text, never as HTML. */

type Child = Node | string | null | undefined | false;
type Props = Record<string, string | number | boolean | undefined>;

/** An element with attributes (`class`, `type`, `aria-…`, `data-…`, …) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children)
    if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

/** A labelled control: the label's text above the input. */
export function field(label: string, control: HTMLElement, className?: string): HTMLLabelElement {
  return h('label', { class: className }, label, control);
}

/** A card with its heading: each part of a page. */
export function card(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'card' }, h('h2', {}, title), ...children);
}

/** A table with its head row; rows are added by the caller. */
export function table(head: string[]): { wrap: HTMLElement; body: HTMLTableSectionElement } {
  const body = h('tbody');
  const wrap = h(
    'div',
    { class: 'table-wrap' },
    h('table', {}, h('thead', {}, h('tr', {}, ...head.map((c) => h('th', { scope: 'col' }, c)))), body),
  );
  return { wrap, body };
}

/** An option of a select. */
export const option = (value: string, label: string, selected = false) =>
  h('option', { value, selected }, label);

/** The page's status line (polite to screen readers); cleared after a while. */
export function say(text: string): void {
  const status = document.getElementById('status');
  if (!status) return;
  status.textContent = text;
  setTimeout(() => {
    if (status.textContent === text) status.textContent = '';
  }, 6_000);
}
