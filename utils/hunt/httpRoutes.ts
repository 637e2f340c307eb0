import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { HttpRoutes } from '../../src/http/server.js';
import { isAppError } from '../errors.js';
import type { HuntService } from './huntService.js';
import { MAX_WEIGHT, WEIGHTS } from './scoring.js';
import { WorkerRefused, type WorkerService } from './workerService.js';

const tipBody = z.object({
  guess: z.array(z.number().int().min(0).max(MAX_WEIGHT)).length(WEIGHTS),
  path: z.number().int().min(0).max(15).optional(),
});

/** The worker API: `POST /api/hunt/tip`, `GET /api/hunt/status`, signed (README, "Workers"). */
export function huntRoutes(services: { hunt: HuntService; workers: WorkerService }): HttpRoutes {
  return (app: FastifyInstance) => {
    const authenticated = async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await services.workers.authenticate({
          method: request.method,
          path: request.url.split('?')[0] as string,
          body: request.rawBody ?? '',
          headers: request.headers as Record<string, string | undefined>,
        });
      } catch (error) {
        if (!(error instanceof WorkerRefused)) throw error;
        await reply.code(401).send({ error: error.reason });
        return null;
      }
    };

    app.post('/api/hunt/tip', async (request, reply) => {
      const worker = await authenticated(request, reply);
      if (!worker) return reply;
      const parsed = tipBody.safeParse(request.body);
      if (!parsed.success)
        return reply.code(400).send({ error: 'bad_tip', detail: parsed.error.issues[0]?.message });
      try {
        const timePaid = await services.hunt.activity(worker._id);
        const { tip, window } = await services.hunt.tip(
          worker._id,
          parsed.data.guess,
          parsed.data.path ?? null,
        );
        return {
          sequence: tip.sequence,
          revision: tip.revision,
          closesAt: window.closesAt.toISOString(),
          timePaidMilli: timePaid,
        };
      } catch (error) {
        if (isAppError(error)) return reply.code(400).send({ error: error.code, detail: error.detail });
        throw error;
      }
    });

    app.get('/api/hunt/status', async (request, reply) => {
      const worker = await authenticated(request, reply);
      if (!worker) return reply;
      const timePaid = await services.hunt.activity(worker._id);
      const [status, history] = await Promise.all([
        services.hunt.status(worker._id),
        services.hunt.history(worker._id, 20),
      ]);
      return {
        owner: worker.ownerId,
        revision: status.revision,
        closesAt: status.window.closesAt.toISOString(),
        beaconPath: status.window.beaconPath,
        pending:
          status.tip?.status === 'pending'
            ? { sequence: status.tip.sequence, guess: status.tip.guess }
            : null,
        best: status.best,
        drawn: history.map((t) => ({
          revision: t.revision,
          sequence: t.sequence,
          guess: t.guess,
          score: t.score,
        })),
        timePaidMilli: timePaid,
      };
    });
  };
}
