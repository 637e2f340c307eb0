import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized, localizedName } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { Reply, Subcommand } from '../../src/interactions/types.js';
import { type CanvasView, overviewView, renderCanvasPicture } from '../../src/render/canvasPicture.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { heatmap, markedOnly, type ViewBoard, virginMap } from '../../utils/place/views.js';
import { parseOptions } from '../options.js';
import { captionDate, PICTURE_SIDE } from './view.js';

const PERIODS = { hour: 3_600_000, day: 86_400_000 } as const;

/** The whole canvas, each pixel as large as fits. */
function wholeView(view: ViewBoard): CanvasView {
  const scale = Math.max(1, Math.floor(PICTURE_SIDE / Math.max(view.width, view.height)));
  return { x0: 0, y0: 0, cols: view.width, rows: view.height, scale, part: false };
}

async function picture(
  i18n: Translator,
  view: ViewBoard,
  shown: CanvasView,
  at: Date,
  text: { title: string; lines: string[]; file: string },
): Promise<Reply> {
  const png = await renderCanvasPicture(view, view.colors, {
    view: shown,
    caption: { title: text.title, date: captionDate(i18n, at), lines: text.lines },
  });
  return {
    embeds: [{ title: text.title, imageFile: text.file }],
    files: [{ name: text.file, data: png }],
  };
}

/**
 * `/place heatmap [period]`: where painting happened in the last hour or day, each pixel in a
 * colour for how often it was painted (dark red once, up to white), framed to where it happened.
 */
export const heatmapView: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.heatmap'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'commands.heatmapPeriod'),
        choices: (['hour', 'day'] as const).map((value) => ({
          value,
          ...localizedName(PLACE_MESSAGES, `commands.heatmapPeriods.${value}`),
        })),
      },
    ],
  },
  defer: { ephemeral: false },
  async run({ deps, invocation, i18n }) {
    const { period } = parseOptions(z.object({ period: z.enum(['hour', 'day']).default('day') }), invocation);
    const now = deps.clock.now();
    const { board, counts, placements } = await deps.services.place.views.heat(
      new Date(now.getTime() - PERIODS[period]),
    );
    const view = heatmap(board, counts);
    const title = i18n.t(`place:views.heatTitle.${period}`);
    const lines =
      placements === 0
        ? [i18n.t(`place:views.heatNone.${period}`)]
        : [
            i18n.t('place:views.heatCount', {
              count: placements,
              placements: i18n.number(placements),
              pixels: i18n.number(view.marked),
            }),
            i18n.t('place:views.heatLegend'),
          ];
    return picture(i18n, view, overviewView(markedOnly(view), 0, PICTURE_SIDE), now, {
      title,
      lines,
      file: 'heatmap.png',
    });
  },
};

/** `/place virgin`: the pixels nobody ever painted, in green over the dimmed canvas. */
export const virginView: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.virgin'),
  },
  defer: { ephemeral: false },
  async run({ deps, i18n }) {
    const board = await deps.services.place.board();
    const view = virginMap(board);
    const total = board.width * board.height;
    const line = i18n.t('place:views.virginCount', {
      count: view.marked,
      virgin: i18n.number(view.marked),
      width: board.width,
      height: board.height,
      // Rounded down: a canvas with a pixel painted never reads as 100 %.
      percent: i18n.number(Math.floor((view.marked / total) * 1000) / 10),
    });
    return picture(i18n, view, wholeView(view), deps.clock.now(), {
      title: i18n.t('place:views.virginTitle'),
      lines: [line],
      file: 'virgin.png',
    });
  },
};
