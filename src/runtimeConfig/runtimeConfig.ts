import type { Clock } from '../clock.js';
import type { Collections, RuntimeConfigDoc } from '../db/collections.js';
import { isDuplicateKey } from '../db/duplicateKey.js';
import { AppError, invalidInput } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Setting, SettingKey, SettingKind, SettingsCatalog, SettingTypes } from './settings.js';

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
}

interface Snapshot {
  loadedAt: number;
  docs: Map<string, { value: unknown; updatedBy: string; updatedAt: Date; revision: number }>;
}

/**
 * Runtime settings stored in `runtime_config`, one document per changed key. Reads are
 * served from an in-process snapshot at most `ttlMs` old, so an interaction costs no
 * database round trip; a change made here is visible here at once and in every other
 * process (shards, tools) within `ttlMs` (RUNTIME_CONFIG_TTL_MS, default 5 s).
 */
export class RuntimeConfig {
  #snapshot: Snapshot | null = null;
  /** The last reload failed: the snapshot before it is served (logged once). */
  #stale = false;
  #loading: Promise<Snapshot> | null = null;

  readonly keys: readonly SettingKey[];

  constructor(
    private readonly deps: { cols: Collections; clock: Clock; log: Logger },
    private readonly catalog: SettingsCatalog,
    private readonly ttlMs: number,
  ) {
    this.keys = Object.keys(catalog) as SettingKey[];
  }

  has(key: string): key is SettingKey {
    return Object.hasOwn(this.catalog, key);
  }

  async get<K extends SettingKey>(key: K): Promise<SettingTypes[K]> {
    const snapshot = await this.#current();
    return this.#value(key, snapshot) as SettingTypes[K];
  }

  /** How many times `key` was set (0: never); a poster compares it with the one its channel failed under. */
  async revision(key: SettingKey): Promise<number> {
    return (await this.#current()).docs.get(key)?.revision ?? 0;
  }

  async list(): Promise<SettingView[]> {
    const snapshot = await this.#current();
    return this.keys.map((key) => {
      const doc = snapshot.docs.get(key);
      const setting = this.#setting(key);
      return {
        key,
        feature: setting.feature ?? key.split('.')[0] ?? key,
        kind: setting.kind,
        description: setting.description,
        value: this.#value(key, snapshot),
        default: setting.default,
        revision: doc?.revision ?? 0,
        limits: setting.limits ?? null,
        updatedBy: doc?.updatedBy ?? null,
        updatedAt: doc?.updatedAt ?? null,
      };
    });
  }

  #setting(key: SettingKey): Setting<unknown> {
    return this.catalog[key] as Setting<unknown>;
  }

  #value(key: SettingKey, snapshot: Snapshot): unknown {
    const setting = this.#setting(key);
    const doc = snapshot.docs.get(key);
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
   * Parses `text` with the key's own schema and stores it; returns the old and new value. With
   * `revision` (what the admin saw), the change is made only if nobody changed the setting since,
   * else SETTING_STALE says who did, when, and what it is now; a repeat of a change already made
   * under the same `opId` answers that change again.
   */
  async set(
    asked: string,
    text: string,
    actorId: string,
    options: { revision?: number; opId?: string } = {},
  ): Promise<SettingChange> {
    const key = this.known(asked);
    const value = this.parse(key, text);
    const { kind, description } = this.#setting(key);
    const updatedAt = this.deps.clock.now();
    const fields = { value, updatedBy: actorId, updatedAt, ...(options.opId ? { opId: options.opId } : {}) };
    let before: unknown;
    let revision: number;
    if (options.revision === undefined) {
      before = this.#value(key, await this.#current());
      const stored = await this.deps.cols.runtimeConfig.findOneAndUpdate(
        { _id: key },
        { $set: fields, $inc: { revision: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      revision = stored?.revision ?? 1;
    } else {
      const earlier = await this.#setAt(key, options.revision, fields);
      if (earlier === 'stale') return this.#refuseStale(key, value, options.revision, options.opId);
      before = earlier ? this.#parsedOr(key, earlier.value) : this.#setting(key).default;
      revision = options.revision + 1;
    }
    this.deps.log.info(
      { event: 'runtime_config.changed', key, before, after: value, actorId },
      'setting changed',
    );
    this.#snapshot?.docs.set(key, { value, updatedBy: actorId, updatedAt, revision });
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
    };
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
    key: SettingKey,
    revision: number,
    fields: Partial<RuntimeConfigDoc>,
  ): Promise<RuntimeConfigDoc | null | 'stale'> {
    try {
      const earlier = await this.deps.cols.runtimeConfig.findOneAndUpdate(
        { _id: key, revision },
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
    value: unknown,
    revision: number,
    opId?: string,
  ): Promise<SettingChange> {
    const doc = await this.deps.cols.runtimeConfig.findOne({ _id: key });
    if (doc) {
      const { value: stored, updatedBy, updatedAt, revision: current } = doc;
      this.#snapshot?.docs.set(key, { value: stored, updatedBy, updatedAt, revision: current });
    }
    const now = doc ? this.#parsedOr(key, doc.value) : this.#setting(key).default;
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
      };
    }
    const detail = `${key} is at revision ${doc?.revision ?? 0}, not ${revision}`;
    throw new AppError('SETTING_STALE', `${detail}: ${doc ? `changed by ${doc.updatedBy}` : 'never set'}`, {
      key,
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

  async #current(): Promise<Snapshot> {
    const now = performance.now(); // cache age, not business time
    if (this.#snapshot && now - this.#snapshot.loadedAt <= this.ttlMs) return this.#snapshot;
    this.#loading ??= this.#load().finally(() => {
      this.#loading = null;
    });
    const loaded = this.#snapshot;
    if (!loaded) return this.#loading;
    // Settings that cannot be read again (the database away) stay as last read, not an error.
    return this.#loading.catch((error: unknown) => {
      if (!this.#stale)
        this.deps.log.warn(
          { event: 'runtime_config.stale', err: error },
          'could not read the settings again; using the ones read before until it can',
        );
      this.#stale = true;
      return loaded;
    });
  }

  async #load(): Promise<Snapshot> {
    const docs = await this.deps.cols.runtimeConfig.find({}).toArray();
    this.#stale = false;
    this.#snapshot = {
      loadedAt: performance.now(),
      docs: new Map(
        docs.map((d) => [
          d._id,
          { value: d.value, updatedBy: d.updatedBy, updatedAt: d.updatedAt, revision: d.revision },
        ]),
      ),
    };
    return this.#snapshot;
  }
}
