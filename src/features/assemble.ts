import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import type { MoneyLayer } from '../deps.js';
import { CORE_ERROR_MESSAGES, type ErrorCode, type ErrorMessage } from '../errors.js';
import type { HttpRoutes } from '../http/server.js';
import { CORE_MESSAGES } from '../i18n/core.js';
import type { Messages } from '../i18n/i18n.js';
import type { BotDeps, CommandModule, SanctionScope } from '../interactions/types.js';
import type { Setting, SettingsCatalog } from '../runtimeConfig/settings.js';
import type { TaskHandler } from '../scheduler/scheduler.js';
import type { Feature, FeatureInfra, FeatureServices, PersonalDataCatalog } from './feature.js';
import { combinePersonalData } from './personalData.js';

/** The central lists, each the combination of what the features export. */
export interface Assembly {
  features: readonly Feature[];
  commands: readonly CommandModule[];
  settings: SettingsCatalog;
  errorMessages: Readonly<Partial<Record<ErrorCode, ErrorMessage>>>;
  /** Every namespace of texts: `core` and one per part with texts (`ledger`, each feature's). */
  messages: Readonly<Record<string, Messages>>;
  ensureIndexes(db: Db): Promise<void>;
  /** Every feature's `transient` collections: what backups leave out. */
  transient: readonly string[];
  /** Every feature's `personalData`: what the privacy feature exports and forgets by. */
  personalData: PersonalDataCatalog;
  /** Every feature's own invariants (beyond the ledger's), as a list of problems. */
  checkInvariants(
    db: Db,
    config: Config,
    ledger: MoneyLayer['ledger'],
    now?: Date,
    since?: Date,
  ): Promise<string[]>;
  /** The settings with the defaults the configuration chooses (DEFAULT_PLACE_PIXEL_COST, …). */
  settingsFor(config: Config): SettingsCatalog;
  createServices(infra: FeatureInfra): FeatureServices;
  tasks(deps: BotDeps): TaskHandler[];
  /** Every feature's `refuseActor`, in the registry's order. */
  refuseActor(deps: BotDeps, actorId: string, scope?: SanctionScope): Promise<void>;
  /** Every feature's `start`: a process that runs timers calls it once they run. */
  start(deps: BotDeps): Promise<void>;
  /** Every feature's `prune`: what each removed, as `<feature>.<what>` counts. */
  prune(deps: BotDeps, now: Date): Promise<Record<string, number>>;
  httpRoutes(deps: BotDeps): HttpRoutes[];
}

function once<T>(what: string, seen: Set<T>, value: T): void {
  if (seen.has(value)) throw new Error(`${what} ${String(value)} is declared twice`);
  seen.add(value);
}

/**
 * Combines the features and checks what the type system cannot: names, command names,
 * component families, setting keys and error codes are unique, and each setting was
 * declared for the feature that brings it. A mistake fails at start-up (and in the registry test), not at a click.
 * A feature's `commandsFrom` sees every feature and its commands join the list in that feature's place.
 */
export function assembleFeatures(features: readonly Feature[]): Assembly {
  const names = new Set<string>();
  const commandNames = new Set<string>();
  const families = new Set<string>();
  const settings: Record<string, Setting<unknown>> = {};
  const messages: Record<string, Messages> = { core: CORE_MESSAGES };
  const errorMessages: Partial<Record<ErrorCode, ErrorMessage>> = { ...CORE_ERROR_MESSAGES };
  const commands: CommandModule[] = [];
  for (const feature of features) {
    once('feature', names, feature.name);
    for (const command of [...(feature.commands ?? []), ...(feature.commandsFrom?.(features) ?? [])]) {
      once('command', commandNames, command.data.name);
      for (const component of command.components) once('component family', families, component.family);
      commands.push(command);
    }
    for (const [key, setting] of Object.entries(feature.settings ?? {})) {
      if (setting.feature !== feature.name) {
        throw new Error(
          `setting ${key} is declared for ${setting.feature ?? 'no feature'}, not ${feature.name}`,
        );
      }
      if (Object.hasOwn(settings, key)) throw new Error(`setting ${key} is declared twice`);
      settings[key] = setting;
    }
    if (feature.messages) {
      if (Object.hasOwn(messages, feature.name)) throw new Error(`text namespace ${feature.name} is taken`);
      messages[feature.name] = feature.messages;
    }
    for (const [code, message] of Object.entries(feature.errors ?? {})) {
      if (Object.hasOwn(errorMessages, code)) throw new Error(`error code ${code} is declared twice`);
      errorMessages[code as ErrorCode] = message;
    }
  }
  return {
    features,
    commands,
    settings: settings as SettingsCatalog,
    errorMessages,
    messages,
    transient: features.flatMap((f) => f.transient ?? []),
    personalData: combinePersonalData(features),
    async ensureIndexes(db) {
      for (const feature of features) await feature.ensureIndexes?.(db);
    },
    httpRoutes(deps) {
      return features.flatMap((f) => (f.httpRoutes ? [f.httpRoutes(deps)] : []));
    },
    settingsFor(config) {
      const catalog: Record<string, Setting<unknown>> = { ...settings };
      for (const feature of features) {
        for (const [key, value] of Object.entries(feature.settingDefaults?.(config) ?? {})) {
          const setting = catalog[key];
          if (!setting) throw new Error(`${feature.name} sets a default for unknown setting ${key}`);
          catalog[key] = { ...setting, default: setting.stored.parse(value) };
        }
      }
      return catalog as SettingsCatalog;
    },
    async checkInvariants(db, config, ledger, now = new Date(), since) {
      // In the registry's order: money in play first (the money layer), then each feature's books.
      const found = await Promise.all(
        features.map((f) => f.checkInvariants?.(db, config, ledger, now, since) ?? []),
      );
      return found.flat();
    },
    createServices(infra) {
      return Object.assign({}, ...features.map((f) => f.createServices?.(infra) ?? {})) as FeatureServices;
    },
    async refuseActor(deps, actorId, scope) {
      for (const feature of features) await feature.refuseActor?.(deps, actorId, scope);
    },
    async start(deps) {
      for (const feature of features) await feature.start?.(deps);
    },
    async prune(deps, now) {
      const removed: Record<string, number> = {};
      for (const feature of features) {
        for (const [what, count] of Object.entries((await feature.prune?.(deps, now)) ?? {}))
          removed[`${feature.name}.${what}`] = count;
      }
      return removed;
    },
    tasks(deps) {
      const kinds = new Set<string>();
      const handlers = features.flatMap((f) => f.tasks?.(deps) ?? []);
      for (const handler of handlers) once('task kind', kinds, handler.kind);
      return handlers;
    },
  };
}
