import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { type AppError, databaseUnavailable } from '../errors.js';
import type { Locale } from '../i18n/i18n.js';
import type { Logger } from '../logger.js';
import { metricsRegistry } from '../metrics.js';
import { answerClientError, errorBody, installContract, SECURITY_HEADERS } from './contract.js';
import { parseQuery } from './params.js';

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
  /** The database is known to be away: every API route answers 503 at once (Retry-After). */
  unreachable?(): boolean;
  /** `none` in the console and in a web-only process. */
  gateway(): 'connected' | 'disconnected' | 'none';
}

export interface HttpServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export interface HttpAppOptions {
  /** What `GET /healthz` reports; without it there is no such route. */
  health?: Health;
  /** An error of the bot as a member reads it in `locale`, for the `message` of its answer. */
  describe: (error: AppError, locale: Locale) => string;
  /** The business clock, for how far off a refusal's time is (`in 3 hours`); the system's by default. */
  now?: () => Date;
  log?: Logger;
}

/**
 * The bot's HTTP server (fastify): bound to loopback unless HTTP_HOST says otherwise. JSON
 * bodies keep their raw text for signature checks. Features register their routes; the
 * server itself serves `GET /metrics` (Prometheus) and `GET /healthz`, and holds every route
 * to one contract (`contract.ts`).
 */
export async function startHttpServer(
  options: HttpAppOptions & { host: string; port: number; log: Logger },
  routes: readonly HttpRoutes[],
): Promise<HttpServer> {
  const app = buildHttpApp(routes, options);
  const address = await app.listen({ host: options.host, port: options.port });
  options.log.info({ event: 'http.listening', address }, `HTTP server on ${address}`);
  return { app, url: address, close: () => app.close() };
}

/** One route as fastify registered it; `page` routes serve HTML and assets and read no query. */
export interface RegisteredRoute {
  method: string;
  url: string;
  page: boolean;
}

const ROUTE_TABLES = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route the server has, as fastify registered it (the route-table test walks them all). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return ROUTE_TABLES.get(app) ?? [];
}

export function buildHttpApp(routes: readonly HttpRoutes[], options: HttpAppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: 16 * 1024,
    // What is refused before any route runs answers by the contract too: a URL fastify cannot
    // decode (a bad percent-escape), and HTTP Node's parser could not read.
    frameworkErrors: (_error, _request, generic) => {
      (generic as unknown as FastifyReply)
        .code(400)
        .headers(SECURITY_HEADERS)
        .send(errorBody('BAD_REQUEST', 'The URL is not valid: a percent-escape does not decode.'));
    },
    clientErrorHandler: answerClientError,
  });
  const table: RegisteredRoute[] = [];
  ROUTE_TABLES.set(app, table);
  app.addHook('onRoute', (route) => {
    const page = (route.config as { page?: boolean } | undefined)?.page === true;
    for (const method of [route.method].flat()) table.push({ method, url: route.url as string, page });
  });
  installContract(app, options);
  const away = options.health?.unreachable;
  if (away) {
    app.addHook('onRequest', async (request) => {
      if (away() && request.url.startsWith('/api/')) throw databaseUnavailable(false);
    });
  }
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('the body is not JSON'), { statusCode: 400 }), undefined);
    }
  });
  // The sign-in form posts its token as a form field.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request, body, done) => {
      request.rawBody = body as string;
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  app.get('/metrics', async (request, reply) => {
    parseQuery({}, request.query);
    return reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  });
  const { health } = options;
  if (health) {
    app.get('/healthz', async (request, reply) => {
      parseQuery({}, request.query);
      const database = !health.unreachable?.() && (await health.database().catch(() => false));
      const gateway = health.gateway();
      const ok = database && gateway !== 'disconnected';
      return reply.code(ok ? 200 : 503).send({ ok, database: database ? 'ok' : 'unreachable', gateway });
    });
  }
  for (const register of routes) register(app);
  return app;
}
