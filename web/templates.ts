import { api } from './api.js';
import { number, t } from './i18n.js';
import { state } from './state.js';
import { $, say, text, view } from './view.js';

/** A faction's template as the public API lists it: where its artwork lies and how much of it the canvas shows. */
export interface Template {
  id: string;
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  progress: { total: number; right: number; percent: number };
}

/** The server keeps the list this long (seconds): progress asked for sooner reads the same. */
const REFRESH_MS = 5_000;
/** How often the list is read again while the overlay is on: templates registered or removed meanwhile. */
const POLL_MS = 60_000;

const layer = view.templates;
const ctx = layer.getContext('2d') as CanvasRenderingContext2D;
const toggle = $<HTMLButtonElement>('templates-toggle');
const opacity = $<HTMLInputElement>('templates-opacity');
const panel = $<HTMLElement>('templates-panel');
const list = $<HTMLUListElement>('templates-list');

let on = false;
let loads = 0;
let templates: Template[] = [];
let refresh: ReturnType<typeof setTimeout> | null = null;
/** When the pending read of the list is due (ms since the epoch). */
let due = 0;
/** Each template's artwork, by id: the art under one id never changes, so it is loaded once. */
const art = new Map<string, Promise<HTMLImageElement>>();

/**
 * The Templates toggle and its opacity slider: the factions' artworks drawn over the canvas,
 * one artwork pixel per canvas pixel on a board-sized layer that moves and scales with the
 * board, at the chosen opacity; beside the canvas, each template's name and progress.
 */
export function bindTemplates(): void {
  showOpacity();
  toggle.addEventListener('click', () => void switchTemplates(!on));
  opacity.addEventListener('input', showOpacity);
}

function showOpacity(): void {
  layer.style.opacity = String(Number(opacity.value) / 100);
  opacity.setAttribute('aria-valuetext', t('templates.opacity', { percent: number(Number(opacity.value)) }));
}

async function switchTemplates(next: boolean): Promise<void> {
  on = next;
  toggle.setAttribute('aria-pressed', String(on));
  opacity.hidden = !on;
  if (!on) {
    loads++;
    if (refresh) clearTimeout(refresh);
    refresh = null;
    layer.hidden = true;
    panel.hidden = true;
    view.viewport.dataset.templates = 'off';
    return;
  }
  await loadTemplates();
}

/** Reads the list, then draws every template's artwork and lists its progress. */
async function loadTemplates(): Promise<void> {
  const load = ++loads;
  if (refresh) clearTimeout(refresh);
  refresh = null;
  const answer = await api<{ revision: number; templates: Template[] }>('/api/public/place/templates').catch(
    (error: Error) => error,
  );
  if (load !== loads) return;
  if (answer instanceof Error) {
    say(t('templates.loadFailed', { reason: answer.message }));
    later(REFRESH_MS);
    return;
  }
  templates = answer.templates;
  const images = await Promise.all(templates.map((template) => artOf(template).catch(() => null)));
  if (load !== loads) return;
  if (state.board && (layer.width !== state.board.width || layer.height !== state.board.height)) {
    layer.width = state.board.width;
    layer.height = state.board.height;
  }
  ctx.imageSmoothingEnabled = false;
  ctx.clearRect(0, 0, layer.width, layer.height);
  templates.forEach((template, i) => {
    const image = images[i];
    if (image) ctx.drawImage(image, template.x, template.y);
  });
  showList();
  layer.hidden = false;
  panel.hidden = false;
  view.viewport.dataset.templates = 'on';
  // An artwork that did not load is tried again soon; else the list is read again now and then.
  later(images.includes(null) || !state.board || answer.revision < state.revision ? REFRESH_MS : POLL_MS);
}

function artOf(template: Template): Promise<HTMLImageElement> {
  let image = art.get(template.id);
  if (!image) {
    const img = new Image();
    img.src = `/api/public/place/templates/${encodeURIComponent(template.id)}/art.png`;
    image = img.decode().then(() => img);
    image.catch(() => art.delete(template.id));
    art.set(template.id, image);
  }
  return image;
}

function showList(): void {
  list.replaceChildren();
  if (templates.length === 0) list.append(text('li', t('templates.none'), 'muted'));
  for (const template of templates) {
    const { name, x, y, width, height, progress } = template;
    const li = document.createElement('li');
    li.dataset.id = template.id;
    const bar = document.createElement('progress');
    bar.max = Math.max(1, progress.total);
    bar.value = progress.right;
    bar.setAttribute('aria-hidden', 'true');
    li.append(
      text('strong', name),
      text('span', t('templates.where', { x, y, width, height }), 'muted'),
      bar,
      text(
        'span',
        t('templates.progress', {
          count: progress.total,
          right: number(progress.right),
          total: number(progress.total),
          percent: number(progress.percent),
        }),
        'progress',
      ),
    );
    list.append(li);
  }
}

/** Reads the list again in a while; a read already due sooner stays (painting goes on and on). */
function later(ms: number): void {
  if (!on) return;
  const at = Date.now() + ms;
  if (refresh && due <= at) return;
  if (refresh) clearTimeout(refresh);
  due = at;
  refresh = setTimeout(() => {
    refresh = null;
    void loadTemplates();
  }, ms);
}

/** A placement the live feed brought: on a template, its progress is asked for again shortly. */
export function templatePainted(x: number, y: number): void {
  if (!on) return;
  const hit = templates.some((tp) => x >= tp.x && x < tp.x + tp.width && y >= tp.y && y < tp.y + tp.height);
  if (hit) later(REFRESH_MS);
}
