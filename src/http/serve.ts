import type { Db } from 'mongodb';
import type { Assembly } from '../features/assemble.js';
import { describeAppError } from '../interactions/errorReplies.js';
import type { BotDeps } from '../interactions/types.js';
import { type Health, type HttpServer, startHttpServer } from './server.js';

/**
 * Starts the HTTP server of a process (the bot, the console, `start:web`, the shard manager)
 * on HTTP_PORT with every feature's routes; none when HTTP_PORT is 0.
 */
export async function serveHttp(
  deps: BotDeps,
  assembly: Assembly,
  parts: { db: Db; gateway?: Health['gateway'] },
): Promise<HttpServer | null> {
  const { http } = deps.config;
  if (http.port === 0) return null;
  const health: Health = {
    database: () => answersWithin(parts.db, 2_000),
    unreachable: () => deps.health?.down ?? false,
    gateway: parts.gateway ?? (() => 'none'),
  };
  return startHttpServer(
    {
      host: http.host,
      port: http.port,
      log: deps.log,
      health,
      describe: (error, locale) => describeAppError(error, assembly.errorMessages, deps.i18n.for(locale)),
      now: () => deps.clock.now(),
    },
    assembly.httpRoutes(deps),
  );
}

/** Where a browser opens the canvas: PUBLIC_URL, else the address the server listens on. */
export function pageUrl(deps: BotDeps, server: HttpServer | null): string | null {
  const base = deps.config.http.publicUrl ?? server?.url ?? null;
  return base ? `${base}/place` : null;
}

/** Whether the database answers a ping within `ms`: a ping waiting on server selection would hold /healthz as long. */
async function answersWithin(db: Db, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const ping = db.command({ ping: 1 }).then(
    (answer) => answer.ok === 1,
    () => false,
  );
  try {
    return await Promise.race([ping, late]);
  } finally {
    clearTimeout(timer);
  }
}
