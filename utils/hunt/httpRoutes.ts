import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FeatureServices } from '../../src/features/services.js';
import { HttpError } from '../../src/http/contract.js';
import { parseQuery, parseWith } from '../../src/http/params.js';
import type { HttpRoutes } from '../../src/http/server.js';
import { MAX_WEIGHT, WEIGHTS } from './scoring.js';
import { splitUrl } from './signing.js';
import { WorkerRefused } from './workerService.js';

const tipBody = z
  .object({
    guess: z
      .array(z.number().int().min(0).max(MAX_WEIGHT), {
        error: `${WEIGHTS} whole numbers from 0 to ${MAX_WEIGHT}`,
      })
      .length(WEIGHTS, { error: `${WEIGHTS} whole numbers from 0 to ${MAX_WEIGHT}` }),
    path: z.number().int().min(0).max(15).optional(),
  })
  .strict();

/**
 * The worker API: `POST /api/hunt/tip`, `GET /api/hunt/status`, signed (docs/web.md, "Workers"),
 * and answering by the server's contract: a refused signature is 401 `WORKER_REFUSED` with the
 * reason, bad input 400 `BAD_REQUEST`, a refused tip the hunt's own code. `revision` and
 * `beaconPath` repeat `round` and `bonusPath` for workers written against the older names,
 * until the next version (CHANGELOG, Deprecated).
 */
export function huntRoutes(services: Pick<FeatureServices, 'hunt' | 'workers' | 'privacy'>): HttpRoutes {
  return (app: FastifyInstance) => {
    const authenticated = async <T>(request: FastifyRequest, input: () => T) => {
      try {
        return await services.workers.authenticate(
          {
            method: request.method,
            ...splitUrl(request.url),
            body: request.rawBody ?? '',
            headers: request.headers as Record<string, string | undefined>,
          },
          input,
        );
      } catch (error) {
        if (!(error instanceof WorkerRefused)) throw error;
        throw new HttpError('WORKER_REFUSED', error.message, { fields: { reason: error.reason } });
      }
    };

    app.post('/api/hunt/tip', async (request) => {
      const { worker, input } = await authenticated(request, () => {
        parseQuery({}, request.query);
        return parseWith(tipBody, request.body);
      });
      // A worker's owner being erased: the tip would pay into a closed account.
      await services.privacy.refuseErasing(worker.ownerId);
      const timePaid = await services.hunt.activity(worker._id);
      const { tip, window } = await services.hunt.tip(worker._id, input.guess, input.path ?? null);
      return {
        sequence: tip.sequence,
        round: tip.round,
        revision: tip.round,
        closesAt: window.closesAt.toISOString(),
        timePaidMilli: timePaid,
      };
    });

    app.get('/api/hunt/status', async (request) => {
      const { worker } = await authenticated(request, () => parseQuery({}, request.query));
      const timePaid = await services.hunt.activity(worker._id);
      const [status, history] = await Promise.all([
        services.hunt.status(worker._id),
        services.hunt.history(worker._id, 20),
      ]);
      return {
        owner: worker.ownerId,
        round: status.round,
        revision: status.round,
        closesAt: status.window.closesAt.toISOString(),
        bonusPath: status.window.bonusPath,
        beaconPath: status.window.bonusPath,
        pending:
          status.tip?.status === 'pending'
            ? { sequence: status.tip.sequence, guess: status.tip.guess }
            : null,
        best: status.best,
        drawn: history.map((t) => ({
          round: t.round,
          revision: t.round,
          sequence: t.sequence,
          guess: t.guess,
          score: t.score,
        })),
        timePaidMilli: timePaid,
      };
    });
  };
}
