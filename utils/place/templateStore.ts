import { Binary, type Collection, type Db } from 'mongodb';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import type { TemplateArt } from './templateArt.js';

const TEMPLATES = 'place_templates';
const GUARD = 'place_template_guard';

/** A faction's template: its artwork at a place on the canvas, the Discord role it belongs to, and where alerts go. */
export interface TemplateDoc {
  _id: string;
  name: string;
  /** The name folded to lower case: names are unique whatever their case. */
  key: string;
  /** One of the MAX_TEMPLATES places in the list, unique: two registrations never both take the last. */
  slot: number;
  /** The canvas's revision when it was registered: only later placements can paint over it. */
  since: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Corners inclusive, for the query by pixel. */
  x2: number;
  y2: number;
  /** One palette index per pixel, 255 where the artwork is transparent. */
  pixels: Binary;
  /** The faction: the Discord role whose members defend it. */
  roleId: string;
  /** The channel its grief alerts go to. */
  channelId: string;
  /** The server it was registered in (null in the console). */
  guildId: string | null;
  /** The language its alerts are written in: the server's when it was registered. */
  locale: string;
  by: string;
  at: Date;
}

/** How far the grief check has read the changes feed: every revision up to `checked` is judged. */
interface GuardDoc {
  _id: 'guard';
  checked: number;
}

/** A stored template as the pure rules read it. */
export function artOf(doc: TemplateDoc): TemplateArt {
  return {
    x: doc.x,
    y: doc.y,
    width: doc.width,
    height: doc.height,
    pixels: new Uint8Array(doc.pixels.buffer),
  };
}

/** The templates (`place_templates`, a few dozen) and the grief check's place in the feed (`place_template_guard`). */
export class TemplateStore {
  readonly #templates: Collection<TemplateDoc>;
  readonly #guard: Collection<GuardDoc>;

  constructor(db: Db) {
    this.#templates = db.collection<TemplateDoc>(TEMPLATES);
    this.#guard = db.collection<GuardDoc>(GUARD);
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(TEMPLATES).createIndex({ key: 1 }, { name: 'by_name', unique: true }),
      db.collection(TEMPLATES).createIndex({ slot: 1 }, { name: 'by_slot', unique: true }),
    ]);
  }

  /**
   * Stores a new template in a free slot: `taken` when its name is, `full` when no slot is free.
   * Two registrations that pick the same slot at once: the unique slot sends the later to the next.
   */
  async insert(
    template: Omit<TemplateDoc, 'pixels' | 'slot'> & { pixels: Uint8Array },
    slots: number,
  ): Promise<'stored' | 'taken' | 'full'> {
    for (;;) {
      const used = new Set(await this.#templates.distinct('slot'));
      const slot = Array.from({ length: slots }, (_, i) => i).find((i) => !used.has(i));
      if (slot === undefined) return 'full';
      try {
        await this.#templates.insertOne({ ...template, slot, pixels: new Binary(template.pixels) });
        return 'stored';
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // The name's index, or the slot's: a name taken stays taken; a slot taken means read again.
        if (await this.byName(template.name)) return 'taken';
      }
    }
  }

  /** Removes one template; the removed one, or null when it is gone already. */
  remove(id: string): Promise<TemplateDoc | null> {
    return this.#templates.findOneAndDelete({ _id: id });
  }

  byName(name: string): Promise<TemplateDoc | null> {
    return this.#templates.findOne({ key: name.trim().toLowerCase() });
  }

  byId(id: string): Promise<TemplateDoc | null> {
    return this.#templates.findOne({ _id: id });
  }

  count(): Promise<number> {
    return this.#templates.countDocuments({});
  }

  /** Every template, oldest first. */
  all(): Promise<TemplateDoc[]> {
    return this.#templates.find({}).sort({ at: 1, _id: 1 }).toArray();
  }

  /** Every template without its pixels: the lists and the web's overlay index. */
  summaries(): Promise<Omit<TemplateDoc, 'pixels'>[]> {
    return this.#templates
      .find({}, { projection: { pixels: 0 } })
      .sort({ at: 1, _id: 1 })
      .toArray();
  }

  /** Where the grief check has read to; null before it ever ran. */
  async checked(): Promise<number | null> {
    return (await this.#guard.findOne({ _id: 'guard' }))?.checked ?? null;
  }

  /** Starts the grief check at a revision, unless it has started: painting before a template existed is nobody's grief. */
  async startGuard(revision: number): Promise<void> {
    await this.#guard.updateOne({ _id: 'guard' }, { $setOnInsert: { checked: revision } }, { upsert: true });
  }

  /**
   * Moves the grief check from `from` to `to`; false when another process moved it first (the
   * alerts of that stretch are then that process's to send).
   */
  async claim(from: number, to: number): Promise<boolean> {
    const moved = await this.#guard.updateOne({ _id: 'guard', checked: from }, { $set: { checked: to } });
    return moved.modifiedCount === 1;
  }
}
