/**
 * Members' pictures for images, fetched by URL (Discord's CDN serves them) with a short
 * timeout and kept in memory, most recently used last. A picture that cannot be fetched is
 * remembered as missing for a while too, so a slow or unreachable CDN costs one timeout, not
 * one per image; the image then shows the member's initials.
 */
export class AvatarCache {
  readonly #entries = new Map<string, { png: Buffer | null; at: number }>();
  readonly #timeoutMs: number;
  readonly #max: number;
  readonly #missingMs: number;
  readonly #now: () => number;

  constructor(options: { timeoutMs?: number; max?: number; missingMs?: number; now?: () => number } = {}) {
    this.#timeoutMs = options.timeoutMs ?? 1_500;
    this.#max = options.max ?? 500;
    this.#missingMs = options.missingMs ?? 5 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** The picture's bytes, or null when there is none (not found, too slow, not an image). */
  async get(url: string | null): Promise<Buffer | null> {
    if (!url) return null;
    const known = this.#entries.get(url);
    if (known && (known.png || this.#now() - known.at < this.#missingMs)) {
      this.#entries.delete(url);
      this.#entries.set(url, known);
      return known.png;
    }
    const png = await this.#fetch(url);
    this.#entries.set(url, { png, at: this.#now() });
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value as string);
    return png;
  }

  async #fetch(url: string): Promise<Buffer | null> {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(this.#timeoutMs) });
      if (!response.ok || !response.headers.get('content-type')?.startsWith('image/')) return null;
      return Buffer.from(await response.arrayBuffer());
    } catch {
      return null;
    }
  }
}
