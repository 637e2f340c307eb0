import { createHash } from 'node:crypto';

/** The console's members: any name maps to a stable fake Discord user id. */
export class ConsoleIdentities {
  readonly #byKey = new Map<string, { id: string; name: string }>();
  readonly #byId = new Map<string, string>();

  /** `@Bob`, `bob` and `BOB` are the same member; the first spelling is kept as display name. */
  get(rawName: string): { id: string; name: string } {
    const name = rawName.replace(/^@/, '');
    const key = name.toLowerCase();
    const known = this.#byKey.get(key);
    if (known) return known;
    const digest = createHash('sha256').update(`console-member:${key}`).digest();
    const id = ((digest.readBigUInt64BE(0) % 900_000_000_000_000_000n) + 100_000_000_000_000_000n).toString();
    const identity = { id, name };
    this.#byKey.set(key, identity);
    this.#byId.set(id, name);
    return identity;
  }

  nameOf(id: string): string | undefined {
    return this.#byId.get(id);
  }
}
