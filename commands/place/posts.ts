import { z } from 'zod';
import type { BotDeps } from '../../src/interactions/types.js';
import { pngPalette, renderCanvasPng } from '../../src/render/placeImages.js';
import { defineTask, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { PALETTE, rgb } from '../../utils/place/palette.js';
import { POST_TASK } from '../../utils/place/posts.js';

const PNG_PALETTE = pngPalette(PALETTE.map((_, i) => rgb(i)));

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
          .map((t) => i18n.t('place:post.painter', { who: t.owner, count: t.count }))
          .join(', ');
        const board = await place.board();
        const scale = Math.max(1, Math.floor(1_024 / Math.max(board.width, board.height)));
        const png = await renderCanvasPng(board, PNG_PALETTE, scale);
        await deps.poster.post('place_channel', {
          content: i18n.t('place:post.caption', {
            revision: report.to,
            count: report.count,
            painters: report.painters,
            top: top || '—',
          }),
          files: [{ name: `canvas-${report.to}.png`, data: png }],
        });
        await deps.poster.post('place_feed_channel', {
          content: i18n.t('place:post.feed', {
            count: report.count,
            painters: report.painters,
            from: report.from + 1,
            to: report.to,
            top: top || '—',
          }),
        });
        await place.markPosted(report.from, report.to);
      }
      await place.schedulePost(new Date(deps.clock.now().getTime() + 1));
    }),
  ];
}
