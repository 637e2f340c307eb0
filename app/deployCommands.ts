/**
 * `npm run deploy-commands`: registers every slash command and context-menu entry with Discord, to DEV_GUILD_ID
 * when set (instant, for testing) or globally. Refuses to deploy a definition that breaks
 * Discord's limits.
 */
import { REST, Routes } from 'discord.js';
import { COMMANDS } from '../commands/index.js';
import { runCli } from '../src/cli.js';
import {
  deployedDefinitions,
  validateCommandDefinitions,
  validateMenuDefinitions,
} from '../src/discord/commandLimits.js';

await runCli(async (config) => {
  const { token, applicationId, devGuildId, apiUrl } = config.discord;
  if (!token || !applicationId) {
    console.error('deploy-commands needs DISCORD_TOKEN and DISCORD_APPLICATION_ID (see .env.example).');
    return 2;
  }
  const { slash, menus } = deployedDefinitions(COMMANDS);
  const definitions = [...slash, ...menus];
  const problems = [...validateCommandDefinitions(slash), ...validateMenuDefinitions(menus)];
  if (problems.length > 0) {
    for (const problem of problems) console.error(`invalid command definition: ${problem}`);
    return 1;
  }
  const rest = new REST(apiUrl ? { api: apiUrl } : {}).setToken(token);
  const route = devGuildId
    ? Routes.applicationGuildCommands(applicationId, devGuildId)
    : Routes.applicationCommands(applicationId);
  const saved = (await rest.put(route, { body: definitions })) as { name: string }[];
  console.log(
    `deployed ${saved.length} commands and menu entries ${devGuildId ? `to guild ${devGuildId}` : 'globally (may take up to an hour to appear)'}: ${saved.map((c) => `/${c.name}`).join(' ')}`,
  );
  return 0;
});
