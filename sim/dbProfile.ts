import type { CommandStartedEvent, CommandSucceededEvent, Db, MongoClient } from 'mongodb';

/** A command's shape: its name, collection and the fields its filter names (not their values). */
function shapeOf(event: CommandStartedEvent): string {
  const command = event.command as Record<string, unknown>;
  const collection = String(command[event.commandName] ?? '');
  const first = (list: unknown) => (Array.isArray(list) ? (list[0] as Record<string, unknown>) : undefined);
  const filter = (command.filter ??
    command.query ??
    first(command.updates)?.q ??
    first(command.deletes)?.q ??
    first(command.pipeline)?.$match) as Record<string, unknown> | undefined;
  // A timer's writes name its kind (the id's first part): which feature's timers cost the most.
  const id = filter?._id;
  const kind = collection === 'due_tasks' && typeof id === 'string' ? ` ${id.split(':')[0]}` : '';
  return `${event.commandName} ${collection} {${Object.keys(filter ?? {})
    .sort()
    .join(', ')}}${kind}`;
}

export interface CommandTotal {
  shape: string;
  count: number;
  ms: number;
}

/** Reads of one shape that no index narrowed: every document of the collection was matched. */
export interface ScanTotal {
  /** `read <collection> {<fields>: <operators>}` (a find, an update's or a delete's match) or `aggregate …`. */
  shape: string;
  reads: number;
  documents: number;
}

/** A day's database work: the slowest command shapes, and the scans (null where the server cannot tell). */
export interface DayProfile {
  commands: CommandTotal[];
  scans: ScanTotal[] | null;
}

/**
 * The database time of a run by command shape (`npm run sim:economy -- --profile-db`), from
 * the driver's command monitoring: what to index, batch or avoid when the run slows down.
 */
export class DbProfile {
  readonly #started = new Map<number, string>();
  readonly #totals = new Map<string, CommandTotal>();

  constructor(
    client: MongoClient,
    private readonly db: Db,
  ) {
    client.on('commandStarted', (event) => this.#started.set(event.requestId, shapeOf(event)));
    client.on('commandSucceeded', (event: CommandSucceededEvent) => {
      const shape = this.#started.get(event.requestId);
      if (shape === undefined) return;
      this.#started.delete(event.requestId);
      const total = this.#totals.get(shape) ?? { shape, count: 0, ms: 0 };
      total.count += 1;
      total.ms += event.duration;
      this.#totals.set(shape, total);
    });
    client.on('commandFailed', (event) => this.#started.delete(event.requestId));
  }

  /**
   * The shapes that took the most time since the last call, most first, after one line `all`
   * of every command, and the scans since the last call, most documents first; both restart.
   */
  async take(limit: number): Promise<DayProfile> {
    const commands = this.#takeCommands(limit);
    return { commands, scans: await this.#takeScans() };
  }

  /** The embedded server counts them (tools/mongo-java-server, `Scans`); MongoDB has no such command. */
  async #takeScans(): Promise<ScanTotal[] | null> {
    try {
      const reply = await this.db.command({ launcherScans: 1 });
      const scans = reply.scans as ScanTotal[];
      return scans.sort((a, b) => b.documents - a.documents);
    } catch {
      return null;
    }
  }

  #takeCommands(limit: number): CommandTotal[] {
    const shapes = [...this.#totals.values()];
    const all: CommandTotal = { shape: 'all', count: 0, ms: 0 };
    for (const t of shapes) {
      all.count += t.count;
      all.ms += t.ms;
    }
    this.#totals.clear();
    return [all, ...shapes.sort((a, b) => b.ms - a.ms).slice(0, limit)];
  }
}
