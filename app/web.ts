/**
 * `npm run start:web`: the canvas's page, API and WebSocket without Discord, for running
 * several web processes behind a load balancer next to the bot. They share the bot's database
 * (MONGODB_URI): sessions, rate limits and the live feed all come from it, so any web process
 * serves any browser and sees every placement.
 */

import { runCli } from '../src/cli.js';
import { openApp } from './openApp.js';
import { serveWebUntilStopped } from './webProcess.js';

await runCli(async (config, log) => {
  if (!config.mongo.uri) {
    console.error('start:web needs MONGODB_URI: the database of the bot whose canvas it serves.');
    return 2;
  }
  const app = await openApp(config, log);
  try {
    return await serveWebUntilStopped(app);
  } finally {
    await app.close();
  }
});
