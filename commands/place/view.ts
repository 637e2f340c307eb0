import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { Subcommand } from '../../src/interactions/types.js';
import {
  type Board,
  type CanvasCaption,
  type CanvasView,
  overviewView,
  paintedArea,
  renderCanvasPicture,
  shownRange,
  zoomView,
} from '../../src/render/canvasPicture.js';
import { renderPalettePng } from '../../src/render/placeImages.js';
import { encodeTimelapse, TIMELAPSE_LIMITS } from '../../src/render/timelapseGif.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { BLANK, colorName, PALETTE, rgb } from '../../utils/place/palette.js';
import type { Replay } from '../../utils/place/placeService.js';
import { parseOptions } from '../options.js';

export const COLORS = PALETTE.map((_, i) => rgb(i));
/** A canvas picture is about this many pixels on its long side: what Discord shows well. */
export const PICTURE_SIDE = 1_024;
const DEFAULT_ZOOM = 16;

/** A date as a caption shows it: day, month, year and time, in UTC (members are in many time zones). */
export function captionDate(i18n: Translator, at: Date): string {
  const format = new Intl.DateTimeFormat(i18n.locale === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return `${format.format(at)} UTC`;
}

/** The caption of a canvas picture: title, date, version and painted pixels, and the part shown. */
export function canvasCaption(
  i18n: Translator,
  board: Board & { revision: number },
  view: CanvasView,
  at: Date,
  zoom?: { zoom: number; x: number; y: number },
): CanvasCaption {
  const painted = paintedArea(board, BLANK).count;
  // Only the board's part: a zoom near an edge shows an off-canvas margin too.
  const range = shownRange(board, view);
  const summary = [
    i18n.t('place:picture.version', { n: i18n.number(board.revision) }),
    painted === 0
      ? i18n.t('place:picture.empty')
      : i18n.t('place:picture.painted', { count: painted, n: i18n.number(painted) }),
  ].join(' · ');
  const part = zoom
    ? i18n.t('place:picture.zoom', { ...zoom, ...range })
    : view.part
      ? i18n.t('place:picture.part', { ...range, width: board.width, height: board.height })
      : null;
  return {
    title: i18n.t('place:picture.title'),
    date: captionDate(i18n, at),
    lines: part ? [summary, part] : [summary],
  };
}

export const view: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.view'),
    options: [
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(PLACE_MESSAGES, 'commands.viewX'),
        min_value: 0,
        max_value: 2_047,
      },
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(PLACE_MESSAGES, 'commands.viewY'),
        min_value: 0,
        max_value: 2_047,
      },
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(PLACE_MESSAGES, 'commands.zoom'),
        min_value: 1,
        max_value: 64,
      },
    ],
  },
  defer: { ephemeral: false },
  async run({ deps, invocation, i18n }) {
    const options = parseOptions(
      z.object({
        x: z.number().int().min(0).optional(),
        y: z.number().int().min(0).optional(),
        zoom: z.number().int().min(1).max(64).optional(),
      }),
      invocation,
    );
    const board = await deps.services.place.board();
    const outlines = await deps.services.place.areas.list();
    const { x, y } = options;
    if ((x !== undefined && x >= board.width) || (y !== undefined && y >= board.height)) {
      return {
        ephemeral: true,
        content: `❌ ${i18n.t('place:errors.outside', { x: x ?? 0, y: y ?? 0, maxX: board.width - 1, maxY: board.height - 1 })}`,
      };
    }
    const now = deps.clock.now();
    const sizes = { revision: board.revision, width: board.width, height: board.height };
    if (x === undefined && y === undefined && options.zoom === undefined) {
      const shown = overviewView(board, BLANK, PICTURE_SIDE);
      const png = await renderCanvasPicture(board, COLORS, {
        view: shown,
        caption: canvasCaption(i18n, board, shown, now),
        outlines,
      });
      return {
        embeds: [{ title: i18n.t('place:view.title', sizes), imageFile: 'canvas.png' }],
        files: [{ name: 'canvas.png', data: png }],
      };
    }
    // Zoom is magnification: each canvas pixel drawn `zoom` times larger, around the pixel asked
    // for, else around the painted part, else the canvas's centre.
    const zoom = options.zoom ?? DEFAULT_ZOOM;
    const { box } = paintedArea(board, BLANK);
    const cx = x ?? (box ? Math.floor((box.x0 + box.x1) / 2) : Math.floor(board.width / 2));
    const cy = y ?? (box ? Math.floor((box.y0 + box.y1) / 2) : Math.floor(board.height / 2));
    const shown = zoomView(board, zoom, PICTURE_SIDE, cx, cy);
    const png = await renderCanvasPicture(board, COLORS, {
      view: shown,
      caption: canvasCaption(i18n, board, shown, now, { zoom, x: cx, y: cy }),
      mark: x !== undefined && y !== undefined ? { x, y } : null,
      outlines,
    });
    return {
      embeds: [
        {
          title: i18n.t('place:view.zoomTitle', { x: cx, y: cy, zoom, revision: board.revision }),
          imageFile: 'zoom.png',
        },
      ],
      files: [{ name: 'zoom.png', data: png }],
    };
  },
};

export const palette: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.palette'),
  },
  async run({ i18n }) {
    const png = await renderPalettePng(
      PALETTE.map((c, i) => ({ name: colorName(i, i18n.locale), hex: c.hex })),
    );
    return {
      ephemeral: true,
      embeds: [
        {
          title: i18n.t('place:palette.title'),
          description: i18n.t('place:palette.body'),
          imageFile: 'palette.png',
        },
      ],
      files: [{ name: 'palette.png', data: png }],
    };
  },
};

export const timelapse: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.timelapse'),
    options: [
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(PLACE_MESSAGES, 'commands.timelapseFrom'),
        min_value: 0,
      },
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(PLACE_MESSAGES, 'commands.timelapseTo'),
        min_value: 1,
      },
    ],
  },
  defer: { ephemeral: false },
  async run({ deps, invocation, i18n }) {
    const { from, to } = parseOptions(
      z.object({
        from: z.number().int().min(0).default(0),
        to: z.number().int().min(1).default(Number.MAX_SAFE_INTEGER),
      }),
      invocation,
    );
    const replay = await deps.services.place.replay(from, to, TIMELAPSE_LIMITS.frames, TIMELAPSE_LIMITS.side);
    const captions = frameCaptions(i18n, replay);
    const { gif, framesUsed } = await encodeTimelapse(replay.frames, replay, COLORS, { captions });
    return {
      embeds: [
        {
          title: i18n.t('place:timelapse.title', { from: replay.from, to: replay.to }),
          description: [
            i18n.t('place:timelapse.body', { frames: framesUsed, kb: Math.ceil(gif.length / 1024) }),
            // Cropped to what the span painted (timelapsePlan.ts); the whole canvas when nothing.
            replay.placements > 0 ? i18n.t('place:timelapse.area', replay.area) : null,
          ]
            .filter(Boolean)
            .join('\n'),
          imageFile: 'timelapse.gif',
        },
      ],
      files: [{ name: 'timelapse.gif', data: gif }],
    };
  },
};

/** Each timelapse frame's caption: the version it shows and when that version was painted. */
function frameCaptions(i18n: Translator, replay: Replay): string[] {
  return replay.moments.map(({ revision, at }) => {
    const n = i18n.number(revision);
    return at
      ? i18n.t('place:picture.frame', { date: captionDate(i18n, at), n })
      : i18n.t('place:picture.version', { n });
  });
}
