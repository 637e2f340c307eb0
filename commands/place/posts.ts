import { z } from 'zod';
import type { BotDeps } from '../../src/interactions/types.js';
import { overviewView, renderCanvasPicture } from '../../src/render/canvasPicture.js';
import { defineTask, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { BLANK } from '../../utils/place/palette.js';
import { POST_TASK } from '../../utils/place/posts.js';
import { COLORS, canvasCaption, PICTURE_SIDE } from './view.js';

/**
 * The community posts, at the end of every `place_post_interval_min`: the rendered canvas to
 * `place_channel` with a caption (revision, placements since the last post, top painters), and
 * one batched summary to `place_feed_channel` (never a message per pixel). Only when the canvas
 * changed. In the server's default language (the bot's, as no member asked).
 */
export function placePostTasks(deps: BotDeps): TaskHandler[] {
  return [
    defineTask(POST_TASK, z.object({ bucket: z.number().int() }), async () => {
      const place = deps.services.place;
      const report = await place.postReport();
      if (report) {
        const i18n = deps.i18n.for('en');
        const top = report.top
          .map((t) => i18n.t('place:post.painter', { who: i18n.member(t.owner), count: t.count }))
          .join(', ');
        const board = await place.board();
        const shown = overviewView(board, BLANK, PICTURE_SIDE);
        const png = await renderCanvasPicture(board, COLORS, {
          view: shown,
          caption: canvasCaption(i18n, board, shown, deps.clock.now()),
        });
        const counts = {
          count: report.count,
          n: i18n.number(report.count),
          painters: i18n.t('place:post.painters', {
            count: report.painters,
            n: i18n.number(report.painters),
          }),
          top: top || '—',
        };
        await deps.poster.post('place_channel', {
          content: i18n.t('place:post.caption', { ...counts, revision: i18n.number(report.to) }),
          files: [{ name: `canvas-${report.to}.png`, data: png }],
        });
        await deps.poster.post('place_feed_channel', {
          content: i18n.t('place:post.feed', {
            ...counts,
            from: i18n.number(report.from + 1),
            to: i18n.number(report.to),
          }),
        });
        await place.markPosted(report.from, report.to);
      }
      await place.schedulePost(new Date(deps.clock.now().getTime() + 1));
    }),
  ];
}
