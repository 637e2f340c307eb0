import { createBotDeps } from '../../app/botDeps.js';
import { ASSEMBLY } from '../../commands/index.js';
import type { ManualClock } from '../../src/clock.js';
import { httpAttachmentReader } from '../../src/discord/attachmentReader.js';
import { createDiscordClient, type DiscordBot, startDiscordBot } from '../../src/discord/discordBot.js';
import { discordPostTransport } from '../../src/discord/discordPostTransport.js';
import { discordRoles } from '../../src/discord/discordRoles.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import type { BotDeps, CommandModule } from '../../src/interactions/types.js';
import { ADMIN_ID, makeAppDeps } from './botHarness.js';
import type { TestDatabase } from './database.js';
import type { FakeDiscord, FakeUser } from './fakeDiscord.js';

export interface FakeBot {
  bot: DiscordBot;
  deps: BotDeps;
  logs: Record<string, unknown>[];
  /** The bot's clock: a test moves it to make timers fall due. */
  clock: ManualClock;
}

/**
 * The real bot wiring (discord.js client, runtime, channel posts through discord.js) against
 * the fake Discord, with the registry's commands plus `extraCommands`, registered with the fake
 * as a deploy would (so it knows which options take a file).
 */
export async function startFakeBot(
  fake: FakeDiscord,
  t: TestDatabase,
  options: {
    extraCommands?: CommandModule[];
    safetyDeferMs?: number;
    env?: Record<string, string>;
    /** How long the bot waits for Discord's answer to a role change (default 10 s). */
    rolesTimeoutMs?: number;
    /** Where the bot reaches Discord, when not the fake itself (a proxy in front of it). */
    apiUrl?: string;
  } = {},
): Promise<FakeBot> {
  const app = makeAppDeps(t, options.env);
  const client = createDiscordClient({ apiUrl: options.apiUrl ?? fake.apiUrl });
  const deps = createBotDeps(app, ASSEMBLY, {
    transport: discordPostTransport(client),
    roles: discordRoles(
      client,
      options.rolesTimeoutMs === undefined ? {} : { timeoutMs: options.rolesTimeoutMs },
    ),
    attachments: httpAttachmentReader(),
  });
  const commands = [...ASSEMBLY.commands, ...(options.extraCommands ?? [])];
  fake.registerCommands(commands.map((c) => c.data));
  const runtime = new InteractionRuntime(
    deps,
    {
      commands,
      errorMessages: ASSEMBLY.errorMessages,
      refuseActor: (deps, actorId, scope) => ASSEMBLY.refuseActor(deps, actorId, scope),
    },
    options.safetyDeferMs === undefined ? {} : { safetyDeferMs: options.safetyDeferMs },
  );
  const bot = await startDiscordBot(client, runtime, deps.log, { token: 'fake-token' });
  return { bot, deps, logs: app.logs, clock: app.clock };
}

let memberCounter = 0;

/** A member no other test uses, so each test starts from its own empty balances. */
export function freshMember(username: string, locale?: string): FakeUser {
  memberCounter += 1;
  const id = `81${String(process.pid).padStart(7, '0')}${String(memberCounter).padStart(9, '0')}`;
  return { id, username, ...(locale ? { locale } : {}) };
}

/** A member with 1,000 Place points (a pixel costs 100), granted by the admin. */
export async function withPlacePoints(harness: FakeBot, member: FakeUser): Promise<FakeUser> {
  await harness.deps.services.place.grant({
    opId: `fund:${member.id}`,
    moderatorId: ADMIN_ID,
    to: member.id,
    amount: 1_000_000,
    reason: '',
  });
  return member;
}
