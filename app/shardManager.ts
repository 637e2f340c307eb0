/**
 * `npm run start:sharded`: runs the bot under discord.js's ShardingManager, one process per
 * shard. Shards share nothing in memory: balances, settings and profiles live in MongoDB;
 * the per-process caches (runtime settings, profile touches) are bounded-staleness copies.
 * Without MONGODB_URI this manager starts the bot's own database server once (src/db) and
 * hands its URI to every shard, so they all use the same data.
 */
import { REST, Routes, ShardingManager } from 'discord.js';
import { runCli } from '../src/cli.js';
import { startDatabaseServer } from '../src/db/connect.js';
import { fromRoot } from '../src/paths.js';
import { openApp } from './openApp.js';
import { serveWebUntilStopped, untilStopped } from './webProcess.js';

await runCli(async (config, log) => {
  const token = config.discord.token;
  if (!token) {
    console.error('start:sharded needs DISCORD_TOKEN; without it use npm start for the local console.');
    return 2;
  }
  const server = await startDatabaseServer(config.mongo, { persistent: true }, log);
  try {
    process.env.MONGODB_URI = server.uri;
    // Discord's recommended shard count, asked through the configured REST API (as 'auto' would).
    const rest = new REST({
      ...(config.discord.apiUrl ? { api: config.discord.apiUrl } : {}),
      // One request: no background sweepers that would keep this process alive.
      hashSweepInterval: 0,
      handlerSweepInterval: 0,
    }).setToken(token);
    const { shards } = (await rest.get(Routes.gatewayBot())) as { shards: number };
    // The web runs once, here, never once per shard (the shards get HTTP_PORT=0).
    process.env.HTTP_PORT = '0';
    const web = await openApp({ ...config, mongo: { ...config.mongo, uri: server.uri } }, log);
    const serving = config.http.port > 0 ? serveWebUntilStopped(web) : untilStopped().then(() => 0);
    const manager = new ShardingManager(fromRoot('app', 'main.ts'), {
      token,
      execArgv: ['--import', 'tsx'],
      totalShards: shards,
    });
    manager.on('shardCreate', (shard) =>
      log.info({ event: 'shard.created', shardId: shard.id }, 'shard started'),
    );
    await manager.spawn();
    // The web process stops on the same signal; then the shards are stopped.
    const webStatus = await serving;
    await web.close();
    if (webStatus !== 0) log.warn({ event: 'web.not_served', status: webStatus }, 'the web was not served');
    // Shard.kill sends SIGTERM without respawning; each shard then shuts down gracefully.
    const exits = [...manager.shards.values()].map((shard) => {
      const child = shard.process;
      const exited = child ? new Promise((resolve) => child.once('exit', resolve)) : Promise.resolve();
      shard.kill();
      return exited;
    });
    await Promise.all(exits);
    return 0;
  } finally {
    await server.stop();
  }
});
