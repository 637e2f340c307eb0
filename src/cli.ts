import { existsSync } from 'node:fs';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { fromRoot } from './paths.js';
import { guardProcess } from './processGuard.js';

/** Where the configuration came from: the `.env` file read (if any) and the variables it set. */
export interface EnvSource {
  file: string | null;
  fromFile: ReadonlySet<string>;
}

/**
 * Reads `.env` from the project root (or the file ENV_FILE names) into the environment, as the
 * README's set-up says to put the token there. The shell's variables win: the file sets only
 * what the environment does not have already (Node's own `process.loadEnvFile`).
 */
export function loadEnvFile(): EnvSource {
  const file = process.env.ENV_FILE ?? fromRoot('.env');
  if (!existsSync(file)) return { file: null, fromFile: new Set() };
  const before = new Set(Object.keys(process.env));
  try {
    process.loadEnvFile(file);
  } catch (error) {
    throw new ConfigError([`${file} could not be read: ${error instanceof Error ? error.message : error}`]);
  }
  return { file, fromFile: new Set(Object.keys(process.env).filter((key) => !before.has(key))) };
}

/**
 * Shared entry of every command-line tool: read `.env`, parse the configuration (stopping
 * with a message that names the bad variable), create the logger, guard the process against
 * failures nothing handled, run, then exit with its status.
 */
export async function runCli(
  main: (config: Config, log: Logger, env: EnvSource) => Promise<number | undefined>,
): Promise<void> {
  let config: Config;
  let env: EnvSource;
  try {
    env = loadEnvFile();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config.logLevel, undefined, {
    secrets: [config.discord.token, config.http.discordClientSecret],
  });
  guardProcess(log);
  let code: number;
  try {
    code = (await main(config, log, env)) ?? 0;
  } catch (error) {
    log.fatal({ event: 'cli.failed', err: error }, 'stopped by an unexpected error');
    code = 1;
  }
  // Every resource is closed by then; exit instead of waiting on sockets that libraries
  // (discord.js REST pools, child-process pipes) may keep open a while longer.
  await new Promise<void>((resolve) => log.flush(() => resolve()));
  process.exit(code);
}
