import type { Logger } from '../logger.js';

/** A stored setting as a layer holds it. */
export interface StoredSetting {
  value: unknown;
  updatedBy: string;
  updatedAt: Date;
  revision: number;
  /** When the value last became what it is; absent on documents written before it was kept. */
  valueSince?: Date;
}

interface Snapshot {
  loadedAt: number;
  docs: Map<string, StoredSetting>;
}

interface Layer {
  snapshot: Snapshot | null;
  loading: Promise<Snapshot> | null;
  /** The last reload failed: the snapshot before it is served (logged once). */
  stale: boolean;
}

/** Servers whose layer a process keeps in memory at most (the least recently loaded go first). */
const MAX_LAYERS = 2_000;

/**
 * The settings of each layer (the defaults, and each server's) as last read, at most `ttlMs`
 * old: an interaction costs no database round trip, and a change made in another process is
 * seen within `ttlMs`. A layer that cannot be read again (the database away) is served as last
 * read, not as an error.
 */
export class LayerCache {
  readonly #layers = new Map<string, Layer>();

  constructor(
    private readonly load: (layer: string) => Promise<Map<string, StoredSetting>>,
    private readonly ttlMs: number,
    private readonly log: Logger,
  ) {}

  /** The layer's settings (`''` the defaults, else a server's id). */
  async docs(layer: string): Promise<Map<string, StoredSetting>> {
    let entry = this.#layers.get(layer);
    if (!entry) {
      if (this.#layers.size >= MAX_LAYERS) this.#layers.delete(this.#layers.keys().next().value as string);
      entry = { snapshot: null, loading: null, stale: false };
      this.#layers.set(layer, entry);
    }
    const now = performance.now(); // cache age, not business time
    if (entry.snapshot && now - entry.snapshot.loadedAt <= this.ttlMs) return entry.snapshot.docs;
    const current = entry;
    current.loading ??= this.load(layer)
      .then((docs) => {
        current.stale = false;
        current.snapshot = { loadedAt: performance.now(), docs };
        return current.snapshot;
      })
      .finally(() => {
        current.loading = null;
      });
    const loaded = current.snapshot;
    if (!loaded) return (await current.loading).docs;
    return current.loading.then(
      (s) => s.docs,
      (error: unknown) => {
        if (!current.stale)
          this.log.warn(
            { event: 'runtime_config.stale', layer: layer || 'default', err: error },
            'could not read the settings again; using the ones read before until it can',
          );
        current.stale = true;
        return loaded.docs;
      },
    );
  }

  /** Forgets a layer: its next read loads it (a change made here is seen here at once). */
  drop(layer: string): void {
    this.#layers.delete(layer);
  }

  /** A change made here is seen here at once. */
  put(layer: string, key: string, stored: StoredSetting | null): void {
    const docs = this.#layers.get(layer)?.snapshot?.docs;
    if (!docs) return;
    if (stored) docs.set(key, stored);
    else docs.delete(key);
  }
}
