import { type Config, ConfigError, loadConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';

/**
 * Shared entry of every command-line tool: parse the configuration (stopping with a
 * message that names the bad variable), create the logger, run, and exit with a status.
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
  const log = createLogger(config.logLevel);
  try {
    process.exitCode = (await main(config, log)) ?? 0;
  } catch (error) {
    log.fatal({ event: 'cli.failed', err: error }, 'stopped by an unexpected error');
    process.exitCode = 1;
  }
}
