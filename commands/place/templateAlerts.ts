import { z } from 'zod';
import { resolveLocale, type Translator } from '../../src/i18n/i18n.js';
import type { BotDeps } from '../../src/interactions/types.js';
import type { PostResult } from '../../src/posting/channelPoster.js';
import { defineTask, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { PlaceBoard } from '../../utils/place/board.js';
import { renderPixelsZoom } from '../../utils/place/rollbackPreview.js';
import { type Grief, templateProgress } from '../../utils/place/templateArt.js';
import { artOf, type TemplateDoc } from '../../utils/place/templateStore.js';
import { GUARD_TASK } from '../../utils/place/templates.js';

/** How many painters an alert names; the rest are counted. */
const PAINTERS_NAMED = 10;

/** One alert to send: its own task, so an alert Discord did not answer is sent again. */
export const ALERT_TASK = 'place.template_alert';

const grief = z.object({
  changes: z.array(
    z.object({
      revision: z.number(),
      x: z.number(),
      y: z.number(),
      color: z.number(),
      before: z.number(),
      owner: z.string().nullable(),
      at: z.coerce.date(),
    }),
  ),
  painters: z.array(z.object({ owner: z.string(), count: z.number() })),
  first: z.coerce.date(),
  last: z.coerce.date(),
});

/**
 * The grief check, at the end of each quiet window in which someone painted: when a burst of
 * placements painted over a template, one alert per template to the channel it names, in its
 * server's language, with who, where, and the region before and after. The stretch of the feed
 * is claimed first, so two processes never judge it twice; each alert is then a task of its
 * own, named by the template and the stretch, whose post Discord keeps to one message however
 * often an unanswered one is sent again.
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
      for (const alert of report.alerts) {
        await deps.scheduler.schedule({
          id: `${ALERT_TASK}:${alert.template._id}:${report.from}:${report.to}`,
          kind: ALERT_TASK,
          dueAt: deps.clock.now(),
          payload: { templateId: alert.template._id, grief: alert.grief },
        });
      }
    }),
    defineTask(ALERT_TASK, z.object({ templateId: z.string(), grief }), async (payload, task) => {
      const template = await deps.services.place.templates.byId(payload.templateId);
      // Removed since: its faction is not told of it any more.
      if (!template) return;
      const board = await deps.services.place.board();
      const posted = await sendAlert(deps, board, template, payload.grief, task.id);
      if (posted.status === 'failed' && !posted.lasting)
        throw new Error(`the grief alert was not answered: ${posted.reason}`);
    }),
  ];
}

async function sendAlert(
  deps: BotDeps,
  board: PlaceBoard,
  template: TemplateDoc,
  grief: Grief,
  once: string,
): Promise<PostResult> {
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
  return deps.poster.postIn(template.channelId, {
    content: alertText(i18n, template, grief, pixels.length, progress.percent),
    embeds: [
      { title: i18n.t('place:templates.alert.before'), imageFile: 'before.png' },
      { title: i18n.t('place:templates.alert.after'), imageFile: 'after.png' },
    ],
    files: [
      { name: 'before.png', data: then },
      { name: 'after.png', data: now },
    ],
    once,
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
