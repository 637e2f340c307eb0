import { ASSEMBLY } from '../commands/index.js';
import { pageUrl, serveHttp } from '../src/http/serve.js';
import type { PostTransport } from '../src/posting/channelPoster.js';
import { prepareBotDeps } from './botDeps.js';
import type { App } from './openApp.js';

/**
 * A process that serves only the web (the shard manager, `npm run start:web`): it runs no
 * timers, so it never posts to Discord; shards run the timers its requests schedule.
 */
const NO_POSTS: PostTransport = {
  send: async () => {
    throw new Error('a web process does not post to Discord');
  },
  edit: async () => {
    throw new Error('a web process does not post to Discord');
  },
};

/** Serves the HTTP routes until SIGINT/SIGTERM; returns the exit status. */
export async function serveWebUntilStopped(app: App): Promise<number> {
  const deps = await prepareBotDeps(app, ASSEMBLY, { transport: NO_POSTS });
  const http = await serveHttp(deps, ASSEMBLY, { db: app.db });
  if (!http) {
    console.error('The web server needs HTTP_PORT (it is 0).');
    return 2;
  }
  app.log.info({ event: 'web.ready', url: pageUrl(deps, http) }, `the live canvas: ${pageUrl(deps, http)}`);
  await untilStopped();
  await http.close();
  return 0;
}

/** Resolves on SIGINT or SIGTERM. */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
