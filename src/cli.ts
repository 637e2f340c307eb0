import { type Config, ConfigError, loadConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { guardProcess } from './processGuard.js';

/**
 * Shared entry of every command-line tool: parse the configuration (stopping with a
 * message that names the bad variable), create the logger, guard the process against
 * failures nothing handled, run, then exit with its status.
 */
export async function runCli(
  main: (config: Config, log: Logger) => Promise<number | undefined>,
): Promise<void> {
  let config: Config;
  try {
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
    code = (await main(config, log)) ?? 0;
  } catch (error) {
    log.fatal({ event: 'cli.failed', err: error }, 'stopped by an unexpected error');
    code = 1;
  }
  // Every resource is closed by then; exit instead of waiting on sockets that libraries
  // (discord.js REST pools, child-process pipes) may keep open a while longer.
  await new Promise<void>((resolve) => log.flush(() => resolve()));
  process.exit(code);
}
