import type { Clock } from '../clock.js';
import type { Collections } from '../db/collections.js';
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
  updatedBy: string | null;
  updatedAt: Date | null;
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

  /** Parses `text` with the key's own schema and stores it; returns the old and new value. */
  async set(
    key: string,
    text: string,
    actorId: string,
  ): Promise<{ key: SettingKey; kind: SettingKind; before: unknown; after: unknown; description: string }> {
    if (!this.has(key)) {
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
    const parsed = this.#setting(key).parse.safeParse(text);
    if (!parsed.success) {
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
    const before = this.#value(key, await this.#current());
    const updatedAt = this.deps.clock.now();
    const stored = await this.deps.cols.runtimeConfig.findOneAndUpdate(
      { _id: key },
      { $set: { value: parsed.data, updatedBy: actorId, updatedAt }, $inc: { revision: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    const revision = stored?.revision ?? 1;
    this.deps.log.info(
      { event: 'runtime_config.changed', key, before, after: parsed.data, actorId },
      'setting changed',
    );
    this.#snapshot?.docs.set(key, { value: parsed.data, updatedBy: actorId, updatedAt, revision });
    const { kind, description } = this.#setting(key);
    return { key, kind, before, after: parsed.data, description };
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
