import { z } from 'zod';
import { resolveLocale, type Translator } from '../../src/i18n/i18n.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { defineTask, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { PlaceBoard } from '../../utils/place/board.js';
import { renderPixelsZoom } from '../../utils/place/rollbackPreview.js';
import { type Grief, templateProgress } from '../../utils/place/templateArt.js';
import { artOf, type TemplateDoc } from '../../utils/place/templateStore.js';
import { GUARD_TASK } from '../../utils/place/templates.js';

/** How many painters an alert names; the rest are counted. */
const PAINTERS_NAMED = 10;

/**
 * The grief check, at the end of each quiet window in which someone painted: when a burst of
 * placements painted over a template, one alert per template to the channel it names, in its
 * server's language, with who, where, and the region before and after. The stretch of the feed
 * is claimed before anything is sent, so two processes never send the same alert.
 */
export function templateAlertTasks(deps: BotDeps): TaskHandler[] {
  return [
    defineTask(GUARD_TASK, z.object({ at: z.number() }), async () => {
      const templates = deps.services.place.templates;
      const report = await templates.griefs();
      if (report.kind === 'later') return templates.checkAt(report.at);
      if (!(await templates.claim(report.from, report.to))) return;
      if (report.more) await templates.checkAt(deps.clock.now());
      if (report.kind === 'none') return;
      const board = await deps.services.place.board();
      for (const { template, grief } of report.alerts) await sendAlert(deps, board, template, grief);
    }),
  ];
}

async function sendAlert(
  deps: BotDeps,
  board: PlaceBoard,
  template: TemplateDoc,
  grief: Grief,
): Promise<void> {
  const i18n = deps.i18n.for(resolveLocale(template.locale));
  // Each pixel as it was before the burst: its first change's colour before.
  const before = new Map<string, { x: number; y: number; color: number }>();
  for (const c of grief.changes) {
    const key = `${c.x}:${c.y}`;
    if (!before.has(key)) before.set(key, { x: c.x, y: c.y, color: c.before });
  }
  const pixels = [...before.values()];
  const [then, now] = await Promise.all([
    renderPixelsZoom(board, pixels, { overlay: true, outlined: true }),
    renderPixelsZoom(board, pixels, { overlay: false, outlined: true }),
  ]);
  const progress = templateProgress(board, artOf(template));
  await deps.poster.postIn(template.channelId, {
    content: alertText(i18n, template, grief, pixels.length, progress.percent),
    embeds: [
      { title: i18n.t('place:templates.alert.before'), imageFile: 'before.png' },
      { title: i18n.t('place:templates.alert.after'), imageFile: 'after.png' },
    ],
    files: [
      { name: 'before.png', data: then },
      { name: 'after.png', data: now },
    ],
  });
}

/** "⚠️ castle was painted over: 20 pixels by @a (12), @b (8), around (10, 12) …" */
export function alertText(
  i18n: Translator,
  template: TemplateDoc,
  grief: Grief,
  pixels: number,
  percent: number,
): string {
  const named = grief.painters
    .slice(0, PAINTERS_NAMED)
    .map((p) => i18n.t('place:templates.alert.painter', { who: i18n.member(p.owner), count: p.count }));
  const more = grief.painters.length - named.length;
  if (more > 0) named.push(i18n.t('place:templates.alert.more', { count: more }));
  const xs = grief.changes.map((c) => c.x);
  const ys = grief.changes.map((c) => c.y);
  return [
    i18n.t('place:templates.alert.title', {
      name: template.name,
      role: template.roleId,
      count: grief.changes.length,
      n: i18n.number(grief.changes.length),
    }),
    i18n.t('place:templates.alert.who', {
      count: grief.painters.length,
      painters: named.join(', ') || '—',
    }),
    i18n.t('place:templates.alert.where', {
      count: pixels,
      pixels: i18n.number(pixels),
      x1: Math.min(...xs),
      y1: Math.min(...ys),
      x2: Math.max(...xs),
      y2: Math.max(...ys),
      // Discord shows each reader the time in their own zone.
      from: `<t:${Math.floor(grief.first.getTime() / 1000)}:T>`,
      to: `<t:${Math.floor(grief.last.getTime() / 1000)}:T>`,
    }),
    i18n.t('place:templates.alert.progress', { percent: i18n.number(percent), name: template.name }),
  ].join('\n');
}
