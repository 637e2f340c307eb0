import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../../src/clock.js';
import { HttpError } from '../../../src/http/contract.js';
import { parseQuery, parseWith, wholeNumber } from '../../../src/http/params.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { pngPalette, renderCanvasPng } from '../../../src/render/placeImages.js';
import { renderArtPng } from '../../../src/render/templateImages.js';
import { PALETTE, rgb } from '../../place/palette.js';
import { TRANSPARENT } from '../../place/templateArt.js';
import { artOf } from '../../place/templateStore.js';
import { HEAT, heatLevel, VIRGIN } from '../../place/views.js';

const PNG_PALETTE = pngPalette(PALETTE.map((_, i) => rgb(i)));
const PUBLIC_PALETTE = PALETTE.map((c) => ({ name: c.name, hex: c.hex }));
const changesQuery = { after: wholeNumber(0), limit: wholeNumber(1, 5_000).default(1_000) };

/** What anyone may read: the board (JSON and PNG), its changes, its protected areas, one pixel. */
export function publicRoutes(app: FastifyInstance, deps: BotDeps): void {
  const { services } = deps;
  app.get('/api/public/place', async (request, reply) => {
    parseQuery({}, request.query);
    const board = await services.place.board();
    const etag = `"r${board.revision}-${board.width}x${board.height}"`;
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return {
      revision: board.revision,
      width: board.width,
      height: board.height,
      palette: PUBLIC_PALETTE,
      encoding: 'base64, one byte (palette index) per pixel, row by row',
      pixels: Buffer.from(board.pixels.buffer, board.pixels.byteOffset, board.pixels.byteLength).toString(
        'base64',
      ),
    };
  });

  app.get('/api/public/place.png', async (request, reply) => {
    parseQuery({}, request.query);
    const board = await services.place.board();
    const etag = `"png-r${board.revision}-${board.width}x${board.height}"`;
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    const png = await renderCanvasPng(board, PNG_PALETTE, 1);
    return reply.type('image/png').send(png);
  });

  app.get('/api/public/place/changes', async (request) => {
    const { after, limit } = parseQuery(changesQuery, request.query);
    const committed = await services.place.advance();
    // Further behind than one page allows: reload the board (cheaper than replaying). Ahead of
    // the canvas (a revision it never reached, or a board from before a restore): reload too.
    if (committed - after > 10 * limit || after > committed) {
      return { reload: true, revision: committed, changes: [] };
    }
    const feed = await services.place.changesAfter(after, limit);
    return {
      reload: false,
      revision: feed.revision,
      more: feed.revision < committed,
      changes: feed.changes.map((e) => ({
        revision: e._id,
        x: e.x,
        y: e.y,
        color_index: e.color,
        owner: e.owner,
        at: e.at.toISOString(),
      })),
    };
  });

  areasRoute(app, deps);

  pixelRoute(app, deps);
  pixelHistoryRoute(app, deps);
  viewRoutes(app, deps);
  templateRoutes(app, deps);
}

/** One pixel: its colour, painter and name, revision, time, and how many times it was painted. */
function pixelRoute(app: FastifyInstance, deps: BotDeps): void {
  const { services } = deps;
  app.get('/api/public/place/pixel', async (request) => {
    const size = await services.place.size();
    const { x, y } = parseQuery(
      { x: wholeNumber(0, size.width - 1), y: wholeNumber(0, size.height - 1) },
      request.query,
    );
    const info = await services.place.pixelInfo(x, y);
    if (!info) return { x, y, painted: 0, color_index: null, owner: null, revision: null, at: null };
    return {
      x,
      y,
      painted: info.painted,
      color_index: info.pixel.color,
      owner: info.pixel.owner,
      owner_name: info.pixel.owner
        ? ((await deps.profiles.names([info.pixel.owner])).get(info.pixel.owner) ?? null)
        : null,
      revision: info.pixel.revision,
      at: info.pixel.at.toISOString(),
    };
  });
}

/** How many of a pixel's changes the public page shows. */
export const PIXEL_HISTORY_LIMIT = 10;

/**
 * A pixel's last changes, newest first: each one's painter (a rollback's: whose state it put
 * back), time, and colour before and after; `rolled_back` when a rollback undid it since.
 */
function pixelHistoryRoute(app: FastifyInstance, { services, profiles }: BotDeps): void {
  app.get('/api/public/place/pixel/history', async (request) => {
    const size = await services.place.size();
    const { x, y } = parseQuery(
      { x: wholeNumber(0, size.width - 1), y: wholeNumber(0, size.height - 1) },
      request.query,
    );
    const page = await services.place.history({
      area: { x1: x, y1: y, x2: x, y2: y },
      limit: PIXEL_HISTORY_LIMIT,
    });
    const owners = [...new Set(page.entries.flatMap((e) => (e.event.owner ? [e.event.owner] : [])))];
    const names = await profiles.names(owners);
    return {
      x,
      y,
      changes: page.entries.map(({ event, beforeColor, rolledBack }) => ({
        revision: event.revision,
        kind: event.kind === 'rollback' ? 'rollback' : 'placement',
        color_index: event.color,
        before_color_index: beforeColor,
        owner: event.owner,
        owner_name: event.owner ? (names.get(event.owner) ?? null) : null,
        at: event.at.toISOString(),
        rolled_back: rolledBack,
      })),
    };
  });
}

/** The protected areas: names and rectangles only; who may paint there (a role's id) is the server's business. */
function areasRoute(app: FastifyInstance, { services }: BotDeps): void {
  app.get('/api/public/place/areas', async (request) => {
    parseQuery({}, request.query);
    const areas = await services.place.areas.list();
    return { areas: areas.map((a) => ({ name: a.name, x1: a.x1, y1: a.y1, x2: a.x2, y2: a.y2 })) };
  });
}

/** Answers kept `VIEW_MAX_AGE` seconds by key: a crowd asking at once is answered from one read. */
function keptForAWhile(clock: Clock) {
  const kept = new Map<string, { until: number; body: object }>();
  return async (key: string, make: () => Promise<object>) => {
    const now = clock.now().getTime();
    const hit = kept.get(key);
    if (hit && hit.until > now) return hit.body;
    const body = await make();
    kept.set(key, { until: now + VIEW_MAX_AGE * 1000, body });
    return body;
  };
}

/** The heatmap's spans, by the name the query gives. */
const HEAT_SPANS = { '1h': 60 * 60_000, '24h': 24 * 60 * 60_000 } as const;
/** How long the views may be served again unchanged (browsers and the server alike), in seconds. */
export const VIEW_MAX_AGE = 5;
const hex = ([r, g, b]: readonly [number, number, number]) =>
  `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0').toUpperCase()).join('')}`;
const base64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/**
 * The canvas's other views for the page's overlays: where painting happened in the last hour or
 * day (a heatmap), and which pixels anyone ever painted (the rest: never painted). One answer per
 * view and span is kept for `VIEW_MAX_AGE` seconds: a crowd opening the heatmap reads the events once.
 */
function viewRoutes(app: FastifyInstance, { services, clock }: BotDeps): void {
  const cached = keptForAWhile(clock);

  app.get('/api/public/place/heat', async (request, reply) => {
    const { span } = parseQuery({ span: z.enum(['1h', '24h'], { error: 'one of 1h, 24h' }) }, request.query);
    reply.header('cache-control', `public, max-age=${VIEW_MAX_AGE}`);
    return cached(`heat-${span}`, async () => {
      const since = new Date(clock.now().getTime() - HEAT_SPANS[span]);
      const { board, counts, placements } = await services.place.views.heat(since);
      const levels = new Uint8Array(counts.length);
      counts.forEach((count, i) => {
        if (count > 0) levels[i] = heatLevel(count) + 1;
      });
      return {
        revision: board.revision,
        width: board.width,
        height: board.height,
        span,
        since: since.toISOString(),
        placements,
        colors: HEAT.map(hex),
        encoding:
          'base64, one byte per pixel, row by row: 0 not painted in the span, else the heat level + 1 (colors[level])',
        pixels: base64(levels),
      };
    });
  });

  app.get('/api/public/place/painted', async (request, reply) => {
    parseQuery({}, request.query);
    reply.header('cache-control', `public, max-age=${VIEW_MAX_AGE}`);
    return cached('painted', async () => {
      const board = await services.place.board();
      // The renderer's board keeps the bitset in this very layout: sent as it is, counted by byte.
      let painted = 0;
      for (const byte of board.painted) for (let b = byte; b !== 0; b &= b - 1) painted++;
      return {
        revision: board.revision,
        width: board.width,
        height: board.height,
        painted,
        virgin_color: hex(VIRGIN),
        encoding:
          'base64 bitset, row by row: pixel i = y * width + x is bit (i & 7) of byte (i >> 3), 1 if ever painted',
        pixels: base64(board.painted),
      };
    });
  });
}

/** How long a template's artwork may be kept, in seconds: the art under one id never changes. */
export const TEMPLATE_ART_MAX_AGE = 24 * 60 * 60;
const ART_COLORS = PALETTE.map((_, i) => rgb(i));
const templateParams = z.object({ id: z.string().regex(/^[\w-]{1,64}$/, { error: 'a template id' }) });

/**
 * The factions' templates for the page's overlay: each one's name, place, size and progress (no
 * member, role or channel: who registered it and where its alerts go are the server's business),
 * and each one's artwork as a PNG with transparency, one image pixel per canvas pixel.
 */
function templateRoutes(app: FastifyInstance, { services, clock }: BotDeps): void {
  const { templates } = services.place;
  const cached = keptForAWhile(clock);
  /** Rendered artworks by id and creation: at most `MAX_KEPT_ART`, the oldest forgotten first. */
  const rendered = new Map<string, Promise<Buffer>>();
  const MAX_KEPT_ART = 64;

  app.get('/api/public/place/templates', async (request, reply) => {
    parseQuery({}, request.query);
    reply.header('cache-control', `public, max-age=${VIEW_MAX_AGE}`);
    return cached('templates', async () => {
      const { revision } = await services.place.board();
      const listed = (await templates.withProgress()).map(({ template, progress }) => {
        const { _id: id, name, x, y, width, height } = template;
        const { total, right, percent } = progress;
        return { id, name, x, y, width, height, progress: { total, right, percent } };
      });
      return { revision, templates: listed };
    });
  });

  app.get('/api/public/place/templates/:id/art.png', async (request, reply) => {
    parseQuery({}, request.query);
    const { id } = parseWith(templateParams, request.params);
    const template = await templates.byId(id);
    if (!template) throw new HttpError('NOT_FOUND', `No template ${id}.`);
    const key = `${id}@${template.at.getTime()}`;
    let png = rendered.get(key);
    if (!png) {
      png = renderArtPng(artOf(template), ART_COLORS, TRANSPARENT);
      rendered.set(key, png);
      png.catch(() => rendered.delete(key));
      for (const old of rendered.keys()) {
        if (rendered.size <= MAX_KEPT_ART) break;
        rendered.delete(old);
      }
    }
    return reply
      .type('image/png')
      .header('cache-control', `public, max-age=${TEMPLATE_ART_MAX_AGE}, immutable`)
      .send(await png);
  });
}
