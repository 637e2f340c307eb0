import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyInstance } from 'fastify';
import { utcDay } from '../../../src/clock.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { DATASET_COLUMNS } from '../../place/dataset.js';
import type { WebGate } from './gate.js';

/**
 * The canvas's history as a CSV dataset, for moderators to study or publish (utils/place/dataset.ts):
 * every change of a pixel in order, painters as pseudonyms, forgotten members as nobody. Streamed
 * row by row: a year of placements is never held at once.
 */
export function datasetRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  app.get('/api/admin/place/dataset.csv', async (request, reply) => {
    await gate.signedIn(request, 'moderator');
    const rows = await deps.services.place.views.dataset();
    const csv = Readable.from(rows).pipe(
      stringify({
        header: true,
        columns: [...DATASET_COLUMNS],
        // RFC 4180: CRLF between records.
        record_delimiter: 'windows',
      }),
    );
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="neural-place-${utcDay(deps.clock.now())}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
}
