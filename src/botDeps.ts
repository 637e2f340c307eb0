import type { App } from './app.js';
import type { BotDeps } from './interactions/types.js';
import { ProfileDirectory } from './profiles/profileDirectory.js';
import { RuntimeConfig } from './runtimeConfig/runtimeConfig.js';

/** The deps every command gets: the app's plus the runtime settings and member profiles. */
export function createBotDeps(app: App): BotDeps {
  return {
    config: app.config,
    log: app.log,
    clock: app.clock,
    rng: app.rng,
    cols: app.cols,
    ledger: app.ledger,
    runtimeConfig: new RuntimeConfig(app, app.config.runtimeConfigTtlMs),
    profiles: new ProfileDirectory(app),
  };
}
