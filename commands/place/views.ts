import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized, localizedName } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { type CanvasView, overviewView, renderCanvasPicture } from '../../src/render/canvasPicture.js';
import type { TextRecorder } from '../../src/render/canvasTools.js';
import type { PlaceBoard } from '../../utils/place/board.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { heatmap, markedOnly, type ViewBoard, virginMap } from '../../utils/place/views.js';
import { parseOptions } from '../options.js';
import { captionDate, PICTURE_SIDE } from './view.js';

const PERIODS = { hour: 3_600_000, day: 86_400_000 } as const;
export type HeatPeriod = keyof typeof PERIODS;

/** The whole canvas, each pixel as large as fits. */
function wholeView(view: ViewBoard): CanvasView {
  const scale = Math.max(1, Math.floor(PICTURE_SIDE / Math.max(view.width, view.height)));
  return { x0: 0, y0: 0, cols: view.width, rows: view.height, scale, part: false };
}

function picture(
  i18n: Translator,
  view: ViewBoard,
  shown: CanvasView,
  text: { at: Date; title: string; lines: string[] },
  record?: TextRecorder,
) {
  return renderCanvasPicture(view, view.colors, {
    view: shown,
    caption: { title: text.title, date: captionDate(i18n, text.at), lines: text.lines },
    ...(record ? { record } : {}),
  });
}

/**
 * The heatmap's picture: each pixel painted in the span in a colour for how often (dark red once,
 * up to white), over the canvas dimmed, framed to where it happened.
 */
export function renderHeatmap(
  i18n: Translator,
  board: PlaceBoard,
  heat: { counts: Uint32Array; placements: number },
  period: HeatPeriod,
  at: Date,
  record?: TextRecorder,
): Promise<Buffer> {
  const view = heatmap(board, heat.counts);
  const lines =
    heat.placements === 0
      ? [i18n.t(`place:views.heatNone.${period}`)]
      : [
          i18n.t('place:views.heatCount', {
            count: heat.placements,
            placements: i18n.number(heat.placements),
            pixels: i18n.number(view.marked),
          }),
          i18n.t('place:views.heatLegend'),
        ];
  const shown = overviewView(markedOnly(view), 0, PICTURE_SIDE);
  return picture(i18n, view, shown, { at, title: i18n.t(`place:views.heatTitle.${period}`), lines }, record);
}

/** The virgin map's picture: the pixels nobody ever painted in green over the dimmed canvas, and how many. */
export function renderVirginMap(
  i18n: Translator,
  board: PlaceBoard,
  at: Date,
  record?: TextRecorder,
): Promise<Buffer> {
  const view = virginMap(board);
  const line = i18n.t('place:views.virginCount', {
    count: view.marked,
    virgin: i18n.number(view.marked),
    width: board.width,
    height: board.height,
    // Rounded down: a canvas with a pixel painted never reads as 100 %.
    percent: i18n.number(Math.floor((view.marked / (board.width * board.height)) * 1000) / 10),
  });
  return picture(
    i18n,
    view,
    wholeView(view),
    { at, title: i18n.t('place:views.virginTitle'), lines: [line] },
    record,
  );
}

/** `/place heatmap [period]`: where painting happened in the last hour or day, and how much. */
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
    const { board, ...heat } = await deps.services.place.views.heat(
      new Date(now.getTime() - PERIODS[period]),
    );
    const png = await renderHeatmap(i18n, board, heat, period, now);
    return {
      embeds: [{ title: i18n.t(`place:views.heatTitle.${period}`), imageFile: 'heatmap.png' }],
      files: [{ name: 'heatmap.png', data: png }],
    };
  },
};

/** `/place virgin`: the pixels nobody ever painted. */
export const virginView: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.virgin'),
  },
  defer: { ephemeral: false },
  async run({ deps, i18n }) {
    const png = await renderVirginMap(i18n, await deps.services.place.board(), deps.clock.now());
    return {
      embeds: [{ title: i18n.t('place:views.virginTitle'), imageFile: 'virgin.png' }],
      files: [{ name: 'virgin.png', data: png }],
    };
  },
};
