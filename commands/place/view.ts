import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import {
  pngPalette,
  renderCanvasPng,
  renderPalettePng,
  renderZoomPng,
} from '../../src/render/placeImages.js';
import { encodeTimelapse, TIMELAPSE_LIMITS } from '../../src/render/timelapseGif.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { PALETTE, rgb } from '../../utils/place/palette.js';
import { parseOptions } from '../options.js';

const COLORS = PALETTE.map((_, i) => rgb(i));
const PNG_PALETTE = pngPalette(COLORS);
/** The full canvas is scaled to about this many pixels on its long side: what Discord shows well. */
const TARGET_SIDE = 1_024;

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
        min_value: 2,
        max_value: 64,
      },
    ],
  },
  defer: { ephemeral: false },
  async run({ deps, invocation, i18n }) {
    const { x, y, zoom } = parseOptions(
      z.object({
        x: z.number().int().min(0).optional(),
        y: z.number().int().min(0).optional(),
        zoom: z.number().int().min(2).max(64).default(16),
      }),
      invocation,
    );
    const board = await deps.services.place.board();
    if (x === undefined || y === undefined) {
      const scale = Math.max(1, Math.floor(TARGET_SIDE / Math.max(board.width, board.height)));
      const png = await renderCanvasPng(board, PNG_PALETTE, scale);
      return {
        embeds: [
          {
            title: i18n.t('place:view.title', {
              revision: board.revision,
              width: board.width,
              height: board.height,
            }),
            imageFile: 'canvas.png',
          },
        ],
        files: [{ name: 'canvas.png', data: png }],
      };
    }
    if (x >= board.width || y >= board.height) {
      return {
        ephemeral: true,
        content: `❌ ${i18n.t('place:errors.outside', { x, y, maxX: board.width - 1, maxY: board.height - 1 })}`,
      };
    }
    const png = await renderZoomPng(board, COLORS, {
      x,
      y,
      radius: zoom,
      cell: Math.max(8, Math.floor(640 / (2 * zoom + 1))),
    });
    return {
      embeds: [
        { title: i18n.t('place:view.zoomTitle', { x, y, revision: board.revision }), imageFile: 'zoom.png' },
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
    const png = await renderPalettePng(PALETTE);
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
    const replay = await deps.services.place.replay(from, to, TIMELAPSE_LIMITS.frames);
    const { gif, framesUsed } = await encodeTimelapse(replay.frames, replay, COLORS);
    return {
      embeds: [
        {
          title: i18n.t('place:timelapse.title', { from: replay.from, to: replay.to }),
          description: i18n.t('place:timelapse.body', {
            frames: framesUsed,
            kb: Math.ceil(gif.length / 1024),
          }),
          imageFile: 'timelapse.gif',
        },
      ],
      files: [{ name: 'timelapse.gif', data: gif }],
    };
  },
};
