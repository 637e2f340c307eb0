import type { Clock } from '../clock.js';
import type { Collections, RuntimeConfigDoc } from '../db/collections.js';
import { isDuplicateKey } from '../db/duplicateKey.js';
import { AppError, invalidInput } from '../errors.js';
import type { Logger } from '../logger.js';
import { LayerCache, type StoredSetting } from './layerCache.js';
import { currentServer } from './serverContext.js';
import type {
  Setting,
  SettingKey,
  SettingKind,
  SettingScope,
  SettingsCatalog,
  SettingTypes,
} from './settings.js';

export interface SettingView {
  key: SettingKey;
  feature: string;
  kind: SettingKind;
  description: string;
  value: unknown;
  default: unknown;
  /** How many times it was set (0: never): a change that names it is made only while it holds. */
  revision: number;
  /** A number's bounds; null for any other kind. */
  limits: { min: number; max: number } | null;
  updatedBy: string | null;
  updatedAt: Date | null;
  /** When the default's value last became what it is (a change to the same value keeps it). */
  valueSince: Date | null;
  /** `global`: one value everywhere; `server`: each server may set its own over the default. */
  scope: SettingScope;
  /** The server's own value when `list` was asked for a server and it set one; else null. */
  server: (StoredSetting & { value: unknown }) | null;
}

/** A change `set` made (or, `replayed`, one the same request made before: nothing was written again). */
export interface SettingChange {
  key: SettingKey;
  kind: SettingKind;
  before: unknown;
  after: unknown;
  description: string;
  revision: number;
  updatedBy: string;
  updatedAt: Date;
  replayed: boolean;
  /** The server whose layer changed, or null for the default. */
  guildId: string | null;
}

/** A server's layer in `runtime_config`: its documents are `<guildId>:<key>` and carry `guildId`. */
const layerId = (key: SettingKey, guildId: string | null) => (guildId ? `${guildId}:${key}` : key);

/**
 * Runtime settings stored in `runtime_config`, one document per changed key, in two layers: the
 * default every server has, and a server's own values for the settings that may differ by server
 * (`scope: 'server'`: its channels, its switches). A read in a server (`inServer`, which the
 * interaction runtime sets) takes the server's value where it set one. Each layer is served from
 * an in-process snapshot at most `ttlMs` old, so an interaction costs no database round trip; a
 * change made here is visible here at once and in every other process (shards, tools) within
 * `ttlMs` (RUNTIME_CONFIG_TTL_MS, default 5 s).
 */
export class RuntimeConfig {
  readonly #cache: LayerCache;

  readonly keys: readonly SettingKey[];

  constructor(
    private readonly deps: { cols: Collections; clock: Clock; log: Logger },
    private readonly catalog: SettingsCatalog,
    ttlMs: number,
  ) {
    this.keys = Object.keys(catalog) as SettingKey[];
    this.#cache = new LayerCache((layer) => this.#load(layer), ttlMs, deps.log);
  }

  has(key: string): key is SettingKey {
    return Object.hasOwn(this.catalog, key);
  }

  /** The value in force: the server's where the code runs for one (`inServer`) and it set one. */
  async get<K extends SettingKey>(key: K, guildId = currentServer()): Promise<SettingTypes[K]> {
    const own = await this.#serverDoc(key, guildId);
    if (own) return this.#parsedOr(key, own.value) as SettingTypes[K];
    return this.#value(key, await this.#cache.docs('')) as SettingTypes[K];
  }

  /** Where a setting may differ: `server` settings may be set per server. */
  scope(key: SettingKey): SettingScope {
    return this.#setting(key).scope ?? 'global';
  }

  /** The setting holding a flag's start delay in hours, if it has one (`withStartDelay`). */
  startDelayOf(key: SettingKey): SettingKey | undefined {
    const delayKey = this.#setting(key).startDelayKey;
    return delayKey && this.has(delayKey) ? delayKey : undefined;
  }

  /**
   * How many times the value in force was set (0: never), with the layer it is in: a poster
   * compares it with the one its channel failed under.
   */
  async revision(key: SettingKey, guildId = currentServer()): Promise<number> {
    const own = await this.#serverDoc(key, guildId);
    return own?.revision ?? (await this.#cache.docs('')).get(key)?.revision ?? 0;
  }

  /** Every setting with its default layer, and a server's own values when `guildId` is given. */
  async list(guildId: string | null = null): Promise<SettingView[]> {
    const docs = await this.#cache.docs('');
    const own = guildId ? await this.#cache.docs(guildId) : new Map<string, StoredSetting>();
    return this.keys.map((key) => {
      const doc = docs.get(key);
      const setting = this.#setting(key);
      const mine = this.scope(key) === 'server' ? own.get(key) : undefined;
      return {
        key,
        feature: setting.feature ?? key.split('.')[0] ?? key,
        kind: setting.kind,
        description: setting.description,
        value: this.#value(key, docs),
        default: setting.default,
        revision: doc?.revision ?? 0,
        limits: setting.limits ?? null,
        updatedBy: doc?.updatedBy ?? null,
        updatedAt: doc?.updatedAt ?? null,
        valueSince: doc?.valueSince ?? doc?.updatedAt ?? null,
        scope: this.scope(key),
        server: mine ? { ...mine, value: this.#parsedOr(key, mine.value) } : null,
      };
    });
  }

  /** The servers that set their own value of a `server` setting, with it (a broadcast's targets). */
  async serverValues(key: SettingKey): Promise<{ guildId: string; value: unknown }[]> {
    if (this.scope(key) !== 'server') return [];
    const docs = await this.deps.cols.runtimeConfig.find({ key, guildId: { $exists: true } }).toArray();
    return docs.flatMap((d) =>
      d.guildId ? [{ guildId: d.guildId, value: this.#parsedOr(key, d.value) }] : [],
    );
  }

  /** The layer a value in force comes from: the server's id when it set its own, else null (the default). */
  async layerOf(key: SettingKey, guildId = currentServer()): Promise<string | null> {
    return guildId && (await this.#serverDoc(key, guildId)) ? guildId : null;
  }

  /**
   * When the value in force became what it is (the server's own when it set one, else the
   * default's); null when it was never set (the value it had from the start).
   */
  async valueSince(key: SettingKey, guildId = currentServer()): Promise<Date | null> {
    const own = await this.#serverDoc(key, guildId);
    if (own) return own.valueSince ?? own.updatedAt;
    const doc = (await this.#cache.docs('')).get(key);
    return doc ? (doc.valueSince ?? doc.updatedAt) : null;
  }

  /** A server's own document for a server setting, if it set one. */
  async #serverDoc(key: SettingKey, guildId: string | null): Promise<StoredSetting | undefined> {
    if (!guildId || this.scope(key) !== 'server') return undefined;
    return (await this.#cache.docs(guildId)).get(key);
  }

  #setting(key: SettingKey): Setting<unknown> {
    return this.catalog[key] as Setting<unknown>;
  }

  #value(key: SettingKey, docs: Map<string, StoredSetting>): unknown {
    const setting = this.#setting(key);
    const doc = docs.get(key);
    if (doc) {
      const parsed = setting.stored.safeParse(doc.value);
      if (parsed.success) return parsed.data;
      this.deps.log.warn(
        { event: 'runtime_config.invalid_stored', key },
        'stored value invalid; using the default',
      );
    }
    return setting.default;
  }

  /**
   * Parses `text` with the key's own schema and stores it in the default layer, or with `guildId`
   * in that server's (a `server` setting only); returns the value in force before and after. With
   * `revision` (what the admin saw), the change is made only if nobody changed that layer since,
   * else SETTING_STALE says who did, when, and what it is now; a repeat of a change already made
   * under the same `opId` answers that change again.
   */
  async set(
    asked: string,
    text: string,
    actorId: string,
    options: { revision?: number; opId?: string; guildId?: string | null } = {},
  ): Promise<SettingChange> {
    const key = this.known(asked);
    const guildId = options.guildId ?? null;
    if (guildId) this.#refuseGlobal(key);
    const value = this.parse(key, text);
    const { kind, description } = this.#setting(key);
    const updatedAt = this.deps.clock.now();
    const fields = {
      value,
      updatedBy: actorId,
      updatedAt,
      ...(guildId ? { guildId, key } : {}),
      ...(options.opId ? { opId: options.opId } : {}),
    };
    const id = layerId(key, guildId);
    let before: unknown = await this.get(key, guildId);
    // Saving the value it has (a form saved again) is a change, not a switch: `valueSince` stays.
    if (!Object.is(before, value)) Object.assign(fields, { valueSince: updatedAt });
    let revision: number;
    if (options.revision === undefined) {
      const stored = await this.deps.cols.runtimeConfig.findOneAndUpdate(
        { _id: id },
        { $set: fields, $inc: { revision: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      revision = stored?.revision ?? 1;
    } else {
      const earlier = await this.#setAt(id, options.revision, fields);
      if (earlier === 'stale') return this.#refuseStale(key, guildId, value, options.revision, options.opId);
      if (earlier) before = this.#parsedOr(key, earlier.value);
      revision = options.revision + 1;
    }
    this.deps.log.info(
      { event: 'runtime_config.changed', key, guildId, before, after: value, actorId },
      'setting changed',
    );
    // Read again at the next use: visible here at once, with when its value became what it is.
    this.#cache.drop(guildId ?? '');
    return {
      key,
      kind,
      before,
      after: value,
      description,
      revision,
      updatedBy: actorId,
      updatedAt,
      replayed: false,
      guildId,
    };
  }

  /**
   * Takes a server's own value away: the default holds there again. Returns the values in force
   * before and after, or null when the server had none of its own.
   */
  async reset(
    asked: string,
    guildId: string,
    actorId: string,
  ): Promise<{ before: unknown; after: unknown } | null> {
    const key = this.known(asked);
    this.#refuseGlobal(key);
    const before = await this.get(key, guildId);
    const removed = await this.deps.cols.runtimeConfig.findOneAndDelete({ _id: layerId(key, guildId) });
    if (!removed) return null;
    this.#cache.put(guildId, key, null);
    this.deps.log.info({ event: 'runtime_config.reset', key, guildId, actorId }, 'server setting reset');
    return { before, after: await this.get(key, guildId) };
  }

  /** A setting with one value everywhere is not a server's to set (INVALID_INPUT, with its key). */
  #refuseGlobal(key: SettingKey): void {
    if (this.scope(key) === 'server') return;
    throw new AppError('INVALID_INPUT', `${key} has one value for every server`, {
      key,
      messageKey: 'core:errors.settingGlobal',
    });
  }

  /** `key` as a setting's key, else NOT_FOUND naming the settings of its feature (or the features). */
  known(key: string): SettingKey {
    if (this.has(key)) return key;
    const feature = key.split(/[._]/)[0] ?? '';
    const featureOf = (k: SettingKey) => this.#setting(k).feature ?? '';
    const related = this.keys.filter((k) => featureOf(k) === feature);
    const known = related.length > 0 ? related : [...new Set(this.keys.map(featureOf))];
    const hint = related.length > 0 ? `settings of ${feature}` : 'features with settings';
    throw new AppError('NOT_FOUND', `there is no setting "${key}" (${hint}: ${known.join(', ')})`, {
      key,
      known: known.join(', '),
      messageKey: 'core:errors.settingUnknown',
    });
  }

  /** Admin text as the setting's value, else INVALID_INPUT with the rule it breaks (what `set` stores). */
  parse(key: SettingKey, text: string): unknown {
    const parsed = this.#setting(key).parse.safeParse(text);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const message = issue?.message ?? 'is invalid';
    // The settings' own checks name catalog texts; anything else is shown as the parser said it.
    const problem = message.startsWith('core:') ? { problemKey: message } : { problem: message };
    const bounds = issue && 'minimum' in issue ? { min: Number(issue.minimum) } : {};
    const upper = issue && 'maximum' in issue ? { max: Number(issue.maximum) } : {};
    throw invalidInput(`"${text}" is not valid for ${key}: ${message}`, {
      key,
      input: text,
      messageKey: 'core:errors.settingInvalid',
      ...problem,
      ...bounds,
      ...upper,
    });
  }

  /**
   * One conditional write: the document as it was at `revision`, null when revision 0 found none
   * and inserted it, or 'stale' when the setting has moved on (another admin's insert included).
   */
  async #setAt(
    id: string,
    revision: number,
    fields: Partial<RuntimeConfigDoc>,
  ): Promise<RuntimeConfigDoc | null | 'stale'> {
    try {
      const earlier = await this.deps.cols.runtimeConfig.findOneAndUpdate(
        { _id: id, revision },
        { $set: fields, $inc: { revision: 1 } },
        { upsert: revision === 0, returnDocument: 'before' },
      );
      if (earlier) return earlier;
      return revision === 0 ? null : 'stale';
    } catch (error) {
      if (revision === 0 && isDuplicateKey(error)) return 'stale';
      throw error;
    }
  }

  /** The setting moved on since `revision`: the same request's own change again, else SETTING_STALE. */
  async #refuseStale(
    key: SettingKey,
    guildId: string | null,
    value: unknown,
    revision: number,
    opId?: string,
  ): Promise<SettingChange> {
    const doc = await this.deps.cols.runtimeConfig.findOne({ _id: layerId(key, guildId) });
    if (doc) {
      const { value: stored, updatedBy, updatedAt, revision: current } = doc;
      this.#cache.put(guildId ?? '', key, { value: stored, updatedBy, updatedAt, revision: current });
    }
    const now = doc ? this.#parsedOr(key, doc.value) : await this.get(key, guildId);
    const { kind, description } = this.#setting(key);
    if (doc && opId && doc.opId === opId && doc.revision === revision + 1 && Object.is(now, value)) {
      const { updatedBy, updatedAt } = doc;
      return {
        key,
        kind,
        before: now,
        after: now,
        description,
        revision: doc.revision,
        updatedBy,
        updatedAt,
        replayed: true,
        guildId,
      };
    }
    const detail = `${key} is at revision ${doc?.revision ?? 0}, not ${revision}`;
    throw new AppError('SETTING_STALE', `${detail}: ${doc ? `changed by ${doc.updatedBy}` : 'never set'}`, {
      key,
      kind,
      value: now as string | number | boolean | null,
      revision: doc?.revision ?? 0,
      updatedBy: doc?.updatedBy ?? null,
      updatedAt: doc?.updatedAt.toISOString() ?? null,
    });
  }

  /** A stored value as its schema reads it, else the default (another process's older shape). */
  #parsedOr(key: SettingKey, stored: unknown): unknown {
    const parsed = this.#setting(key).stored.safeParse(stored);
    return parsed.success ? parsed.data : this.#setting(key).default;
  }

  /** A layer's documents: the default's (no `guildId`), or one server's. */
  async #load(layer: string): Promise<Map<string, StoredSetting>> {
    // The default layer's documents have no guildId (`null` matches a missing field).
    const filter = layer ? { guildId: layer } : { guildId: { $exists: false } };
    const docs = await this.deps.cols.runtimeConfig.find(filter).toArray();
    return new Map(
      docs.map((d) => [
        d.key ?? d._id,
        {
          value: d.value,
          updatedBy: d.updatedBy,
          updatedAt: d.updatedAt,
          revision: d.revision,
          ...(d.valueSince ? { valueSince: d.valueSince } : {}),
        },
      ]),
    );
  }
}
