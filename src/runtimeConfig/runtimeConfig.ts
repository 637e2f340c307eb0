import { AppError, invalidInput } from '../../utils/errors.js';
import type { Clock } from '../clock.js';
import type { Collections } from '../db/collections.js';
import type { Logger } from '../logger.js';
import {
  isSettingKey,
  RUNTIME_SETTINGS,
  SETTING_KEYS,
  type SettingKey,
  type SettingValue,
} from './settings.js';

export interface SettingView {
  key: SettingKey;
  description: string;
  value: unknown;
  default: unknown;
  updatedBy: string | null;
  updatedAt: Date | null;
}

interface Snapshot {
  loadedAt: number;
  docs: Map<string, { value: unknown; updatedBy: string; updatedAt: Date }>;
}

/**
 * Runtime settings stored in `runtime_config`, one document per changed key. Reads are
 * served from an in-process snapshot at most `ttlMs` old, so an interaction costs no
 * database round trip; a change made here is visible here at once and in every other
 * process (shards, tools) within `ttlMs` (RUNTIME_CONFIG_TTL_MS, default 5 s).
 */
export class RuntimeConfig {
  #snapshot: Snapshot | null = null;
  #loading: Promise<Snapshot> | null = null;

  constructor(
    private readonly deps: { cols: Collections; clock: Clock; log: Logger },
    private readonly ttlMs: number,
  ) {}

  async get<K extends SettingKey>(key: K): Promise<SettingValue<K>> {
    const snapshot = await this.#current();
    const doc = snapshot.docs.get(key);
    const setting = RUNTIME_SETTINGS[key];
    if (doc) {
      const parsed = setting.stored.safeParse(doc.value);
      if (parsed.success) return parsed.data as SettingValue<K>;
      this.deps.log.warn(
        { event: 'runtime_config.invalid_stored', key },
        'stored value invalid; using the default',
      );
    }
    return setting.default as SettingValue<K>;
  }

  async list(): Promise<SettingView[]> {
    const snapshot = await this.#current();
    return Promise.all(
      SETTING_KEYS.map(async (key) => {
        const doc = snapshot.docs.get(key);
        return {
          key,
          description: RUNTIME_SETTINGS[key].description,
          value: await this.get(key),
          default: RUNTIME_SETTINGS[key].default,
          updatedBy: doc?.updatedBy ?? null,
          updatedAt: doc?.updatedAt ?? null,
        };
      }),
    );
  }

  /** Parses `text` with the key's own schema and stores it; returns the old and new value. */
  async set(
    key: string,
    text: string,
    actorId: string,
  ): Promise<{ key: SettingKey; before: unknown; after: unknown }> {
    if (!isSettingKey(key)) {
      throw new AppError('NOT_FOUND', `there is no setting "${key}"`, {
        key,
        known: SETTING_KEYS.join(', '),
      });
    }
    const parsed = RUNTIME_SETTINGS[key].parse.safeParse(text);
    if (!parsed.success) {
      throw invalidInput(
        `"${text}" is not valid for ${key}: it ${parsed.error.issues[0]?.message ?? 'is invalid'}`,
        {
          key,
          input: text,
        },
      );
    }
    const before = await this.get(key);
    const updatedAt = this.deps.clock.now();
    await this.deps.cols.runtimeConfig.updateOne(
      { _id: key },
      { $set: { value: parsed.data, updatedBy: actorId, updatedAt } },
      { upsert: true },
    );
    this.deps.log.info(
      { event: 'runtime_config.changed', key, before, after: parsed.data, actorId },
      'setting changed',
    );
    this.#snapshot?.docs.set(key, { value: parsed.data, updatedBy: actorId, updatedAt });
    return { key, before, after: parsed.data };
  }

  async #current(): Promise<Snapshot> {
    const now = performance.now(); // cache age, not business time
    if (this.#snapshot && now - this.#snapshot.loadedAt <= this.ttlMs) return this.#snapshot;
    this.#loading ??= this.#load().finally(() => {
      this.#loading = null;
    });
    return this.#loading;
  }

  async #load(): Promise<Snapshot> {
    const docs = await this.deps.cols.runtimeConfig.find({}).toArray();
    this.#snapshot = {
      loadedAt: performance.now(),
      docs: new Map(
        docs.map((d) => [d._id, { value: d.value, updatedBy: d.updatedBy, updatedAt: d.updatedAt }]),
      ),
    };
    return this.#snapshot;
  }
}
