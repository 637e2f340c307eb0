/** The page's elements and the small helpers that write to them. */

export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
export const view = {
  viewport: $<HTMLDivElement>('viewport'),
  canvas: $<HTMLCanvasElement>('board'),
  overlay: $<HTMLCanvasElement>('overlay'),
  templates: $<HTMLCanvasElement>('templates-layer'),
  cursor: $<HTMLDivElement>('cursor'),
  coords: $<HTMLOutputElement>('coords'),
  revision: $<HTMLParagraphElement>('revision'),
  account: $<HTMLParagraphElement>('account'),
  sheet: $<HTMLDivElement>('sheet'),
  palette: $<HTMLDivElement>('palette'),
  pixelInfo: $<HTMLParagraphElement>('pixel-info'),
  pixelHistory: $<HTMLOListElement>('pixel-history'),
  place: $<HTMLButtonElement>('place'),
  wallet: $<HTMLDivElement>('wallet'),
  feed: $<HTMLOListElement>('feed'),
  status: $<HTMLParagraphElement>('status'),
  confirm: $<HTMLDialogElement>('confirm'),
  confirmText: $<HTMLParagraphElement>('confirm-text'),
};

export const say = (text: string) => {
  view.status.textContent = text;
  if (!text) return;
  setTimeout(() => {
    if (view.status.textContent === text) view.status.textContent = '';
  }, 5_000);
};
export const text = (tag: string, content: string, className?: string) => {
  const el = document.createElement(tag);
  el.textContent = content;
  if (className) el.className = className;
  return el;
};
