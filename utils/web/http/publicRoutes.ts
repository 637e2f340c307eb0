import type { FastifyInstance } from 'fastify';
import { parseQuery, wholeNumber } from '../../../src/http/params.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { pngPalette, renderCanvasPng } from '../../../src/render/placeImages.js';
import { PALETTE, rgb } from '../../place/palette.js';

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

/** The protected areas: names and rectangles only; who may paint there (a role's id) is the server's business. */
function areasRoute(app: FastifyInstance, { services }: BotDeps): void {
  app.get('/api/public/place/areas', async (request) => {
    parseQuery({}, request.query);
    const areas = await services.place.areas.list();
    return { areas: areas.map((a) => ({ name: a.name, x1: a.x1, y1: a.y1, x2: a.x2, y2: a.y2 })) };
  });
}
