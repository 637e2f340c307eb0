import type { EnvSource } from '../src/cli.js';
import type { Config } from '../src/config.js';

/** Loopback addresses: a link to them opens only on the machine the bot runs on. */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export interface StartupLine {
  text: string;
  mode: 'discord' | 'console';
  /** Said beside it when the sign-in links would not open where members are. */
  warning: string | null;
}

/**
 * The one line `npm start` begins with: which mode runs and why, which database, and the
 * address the sign-in links use, so an operator sees at once what the bot made of its
 * configuration (docs/operating.md, "Running it on Discord").
 */
export function startupLine(config: Config, env: EnvSource, persistent: boolean): StartupLine {
  const token = config.discord.token;
  const where = env.fromFile.has('DISCORD_TOKEN') ? 'in .env' : 'in the environment';
  const mode = token
    ? `DISCORD_TOKEN set ${where}: connecting to Discord`
    : 'no DISCORD_TOKEN: local console';
  const database = config.mongo.uri
    ? `database MONGODB_URI (${new URL(config.mongo.uri.replace(/^mongodb(\+srv)?:/, 'http:')).host})`
    : persistent
      ? `database embedded, persistent in ${config.mongo.dataDir}`
      : 'database embedded, in memory';
  const { host, port, publicUrl } = config.http;
  const listener = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const links = port === 0 ? 'no web server (HTTP_PORT=0)' : `sign-in links ${publicUrl ?? listener}`;
  const warning =
    port !== 0 && publicUrl === null && !LOOPBACK.test(host)
      ? `PUBLIC_URL is not set: sign-in links point at ${listener}, which phones and other computers cannot open; set PUBLIC_URL to the address members reach the bot at`
      : null;
  return { text: `${mode}; ${database}; ${links}`, mode: token ? 'discord' : 'console', warning };
}
