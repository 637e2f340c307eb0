import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as sent (signatures are over it). */
    rawBody?: string;
  }
}

/** What a feature adds to the HTTP server (the hunt's worker API; later the canvas's pages). */
export type HttpRoutes = (app: FastifyInstance) => void;

/**
 * The bot's HTTP server (fastify): bound to loopback unless HTTP_HOST says otherwise. JSON
 * bodies keep their raw text for signature checks. Features register their routes.
 */
export async function startHttpServer(
  options: { host: string; port: number; log: Logger },
  routes: readonly HttpRoutes[],
): Promise<{ app: FastifyInstance; url: string; close(): Promise<void> }> {
  const app = buildHttpApp(routes);
  const address = await app.listen({ host: options.host, port: options.port });
  options.log.info({ event: 'http.listening', address }, `HTTP server on ${address}`);
  return { app, url: address, close: () => app.close() };
}

export function buildHttpApp(routes: readonly HttpRoutes[]): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('the body is not JSON'), { statusCode: 400 }), undefined);
    }
  });
  for (const register of routes) register(app);
  return app;
}
