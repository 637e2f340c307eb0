import { createHash } from 'node:crypto';

function stableId(kind: string, key: string): string {
  const digest = createHash('sha256').update(`console-${kind}:${key}`).digest();
  return ((digest.readBigUInt64BE(0) % 900_000_000_000_000_000n) + 100_000_000_000_000_000n).toString();
}

/** A name → stable fake Discord id directory (members, channels, roles). */
class Directory {
  readonly #byKey = new Map<string, { id: string; name: string }>();
  readonly #byId = new Map<string, string>();

  constructor(private readonly kind: string) {}

  /** `@Bob`, `bob` and `BOB` are the same; the first spelling is kept as display name. */
  get(name: string): { id: string; name: string } {
    const key = name.toLowerCase();
    const known = this.#byKey.get(key);
    if (known) return known;
    const identity = { id: stableId(this.kind, key), name };
    this.#byKey.set(key, identity);
    this.#byId.set(identity.id, name);
    return identity;
  }

  nameOf(id: string): string | undefined {
    return this.#byId.get(id);
  }

  /** The identity of a name used before; undefined for a name never seen. */
  known(name: string): { id: string; name: string } | undefined {
    return this.#byKey.get(name.toLowerCase());
  }
}

/** The console's members, channels and roles: any name maps to a stable fake Discord id. */
export class ConsoleIdentities {
  readonly #members = new Directory('member');
  readonly #channels = new Directory('channel');
  readonly #roles = new Directory('role');

  get(rawName: string): { id: string; name: string } {
    return this.#members.get(rawName.replace(/^@/, ''));
  }

  nameOf(id: string): string | undefined {
    return this.#members.nameOf(id);
  }

  /** `#audit` in a console line is the channel named audit. */
  channel(rawName: string): { id: string; name: string } {
    return this.#channels.get(rawName.replace(/^#/, ''));
  }

  channelNameOf(id: string): string | undefined {
    return this.#channels.nameOf(id);
  }

  /** `@VIP` in a console line is the role named VIP (a member named VIP is someone else). */
  role(rawName: string): { id: string; name: string } {
    return this.#roles.get(rawName.replace(/^@/, ''));
  }

  /** The role `@VIP` names, if a line named it before (a role given, a role option). */
  knownRole(rawName: string): { id: string; name: string } | undefined {
    return this.#roles.known(rawName.replace(/^@/, ''));
  }

  roleNameOf(id: string): string | undefined {
    return this.#roles.nameOf(id);
  }
}
