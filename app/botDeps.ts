import { backupTasks, planBackups } from '../src/backup/backupTimer.js';
import { Cooldowns } from '../src/cooldowns/cooldowns.js';
import { httpAttachmentReader } from '../src/discord/attachmentReader.js';
import type { Assembly } from '../src/features/assemble.js';
import type { FeatureInfra } from '../src/features/feature.js';
import { Hooks } from '../src/features/hooks.js';
import { I18n } from '../src/i18n/i18n.js';
import { ServerLanguage } from '../src/i18n/serverLanguage.js';
import type { AttachmentReader, BotDeps } from '../src/interactions/types.js';
import { ChannelPoster, type PostTransport } from '../src/posting/channelPoster.js';
import { ProfileDirectory } from '../src/profiles/profileDirectory.js';
import { ServerMembers } from '../src/profiles/serverMembers.js';
import type { MemberLookup } from '../src/render/memberFaces.js';
import { planRetention, retentionTasks } from '../src/retention.js';
import { type MemberRoles, NO_ROLES } from '../src/roles/memberRoles.js';
import { RuntimeConfig } from '../src/runtimeConfig/runtimeConfig.js';
import { Scheduler, type TaskHandler } from '../src/scheduler/scheduler.js';
import { createMoneyLayer, ensureHoldIndexes } from '../utils/money/moneyLayer.js';
import type { AppDeps } from './openApp.js';

export interface BotDepsOptions {
  /** Where channel posts go: Discord, the console, or a test's recorder. */
  transport: PostTransport;
  /** Where images look members up (Discord); without it they use the names the bot has seen and initials. */
  members?: MemberLookup;
  /** Who gives and takes members' roles (Discord, the console); without it every role change is refused. */
  roles?: MemberRoles;
  /** Who reads the files members attach to attachment options; without it, over HTTP (Discord's CDN). */
  attachments?: AttachmentReader;
}

/**
 * The deps every command, component and task gets: the app's (without the database), the
 * infrastructure services, and each feature's services (built from the database by the
 * features' own stores). Task handlers are registered with the scheduler here.
 */
export function createBotDeps(app: AppDeps, assembly: Assembly, options: BotDepsOptions): BotDeps {
  const { config, log, clock, wallClock, rng, cols, db } = app;
  const runtimeConfig = new RuntimeConfig(app, assembly.settingsFor(config), config.runtimeConfigTtlMs);
  const scheduler = new Scheduler(
    { tasks: cols.dueTasks, clock, log },
    {
      owner: `${process.pid}:${rng.uuid().slice(0, 8)}`,
      leaseMs: config.scheduler.leaseMs,
      concurrency: config.scheduler.concurrency,
    },
  );
  const poster = new ChannelPoster(
    { transport: options.transport, runtimeConfig, states: cols.channelStates, clock, log },
    { minIntervalMs: config.postMinIntervalMs },
  );
  const money = createMoneyLayer(app, scheduler);
  const infra: FeatureInfra = {
    i18n: new I18n(assembly.messages),
    config,
    log,
    clock,
    wallClock,
    rng,
    ...money,
    db,
    personalData: assembly.personalData,
    featureHooks: new Hooks(),
    runtimeConfig,
    profiles: new ProfileDirectory(app),
    serverMembers: new ServerMembers(app),
    serverLanguage: new ServerLanguage(app),
    cooldowns: new Cooldowns({ cooldowns: cols.cooldowns, clock }),
    scheduler,
    poster,
    roles: options.roles ?? NO_ROLES,
    attachments: options.attachments ?? httpAttachmentReader(),
    ...(app.health ? { health: app.health } : {}),
  };
  const { db: _db, personalData: _personalData, ...shared } = infra;
  const deps: BotDeps = {
    ...shared,
    services: assembly.createServices(infra),
    ...(options.members ? { members: options.members } : {}),
  };
  scheduler.register([
    ...money.holds.tasks(),
    ...assembly.tasks(deps),
    ...retentionTasks({ scheduler, log }, (now) => assembly.prune(deps, now)),
    ...backupTasksOf(app, scheduler, assembly.transient),
  ]);
  return deps;
}

/** The timer of the bot's own backups, when it takes them (BACKUP_DIR). */
function backupTasksOf(app: AppDeps, scheduler: Scheduler, leaveOut: readonly string[]): TaskHandler[] {
  const dir = app.config.backup.dir;
  if (dir === null) return [];
  return backupTasks({ ...app, scheduler, backup: { ...app.config.backup, dir }, leaveOut });
}

/**
 * What a process that runs timers plans at its start, once they run: the sweep of holds left
 * open, the hourly retention, the features' recurring timers, and the backup of the slot under way.
 */
export async function startTimers(deps: BotDeps, app: AppDeps, assembly: Assembly): Promise<void> {
  await deps.holds.planSweep();
  await planRetention(deps);
  await assembly.start(deps);
  const dir = app.config.backup.dir;
  if (dir !== null)
    await planBackups({ ...app, scheduler: deps.scheduler, backup: { ...app.config.backup, dir } });
}

/** Creates the features' indexes (idempotent), then the deps. */
export async function prepareBotDeps(
  app: AppDeps,
  assembly: Assembly,
  options: BotDepsOptions,
): Promise<BotDeps> {
  await Promise.all([ensureHoldIndexes(app.db), assembly.ensureIndexes(app.db)]);
  return createBotDeps(app, assembly, options);
}
