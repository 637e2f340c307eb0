/**
 * Child process of the process-guard test: an entry point like the bot's (`runCli`) whose work
 * leaves a rejection nobody handles, as a forgotten `await` would, then keeps running.
 * Argument: `rejection` or `exception`.
 */
import { runCli } from '../../src/cli.js';

await runCli(async () => {
  if (process.argv[2] === 'exception') setTimeout(() => JSON.parse('{ not json'), 10);
  else void Promise.reject(new Error('a write nobody awaited failed'));
  await new Promise(() => {});
  return 0;
});
