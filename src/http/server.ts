import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';
import { metricsRegistry } from '../metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as sent (signatures are over it). */
    rawBody?: string;
  }
}

/** What a feature adds to the HTTP server (the hunt's worker API, the canvas's page and API). */
export type HttpRoutes = (app: FastifyInstance) => void;

/** What `GET /healthz` reports: the database, and the Discord gateway where there is one. */
export interface Health {
  database(): Promise<boolean>;
  /** `none` in the console and in a web-only process. */
  gateway(): 'connected' | 'disconnected' | 'none';
}

export interface HttpServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/**
 * The bot's HTTP server (fastify): bound to loopback unless HTTP_HOST says otherwise. JSON
 * bodies keep their raw text for signature checks. Features register their routes; the
 * server itself serves `GET /metrics` (Prometheus) and `GET /healthz`.
 */
export async function startHttpServer(
  options: { host: string; port: number; log: Logger; health: Health },
  routes: readonly HttpRoutes[],
): Promise<HttpServer> {
  const app = buildHttpApp(routes, options.health);
  const address = await app.listen({ host: options.host, port: options.port });
  options.log.info({ event: 'http.listening', address }, `HTTP server on ${address}`);
  return { app, url: address, close: () => app.close() };
}

export function buildHttpApp(routes: readonly HttpRoutes[], health?: Health): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('the body is not JSON'), { statusCode: 400 }), undefined);
    }
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics()),
  );
  if (health) {
    app.get('/healthz', async (_request, reply) => {
      const database = await health.database().catch(() => false);
      const gateway = health.gateway();
      const ok = database && gateway !== 'disconnected';
      return reply.code(ok ? 200 : 503).send({ ok, database: database ? 'ok' : 'unreachable', gateway });
    });
  }
  for (const register of routes) register(app);
  return app;
}
