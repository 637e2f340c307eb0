import type { Clock } from '../clock.js';
import type { Collections, ProfileDoc } from '../db/collections.js';

const REFRESH_MS = 10 * 60_000;
const MAX_CACHED = 10_000;

/** How a reminder reaches a member: a direct message (the default), or a mention in a channel. */
export type ReminderVia = 'dm' | 'mention';

/**
 * Remembers members' display names (for leaderboards and images) and when they were last
 * active (for inactive-profile cleanup). A member's row is written at most once every
 * ten minutes per process, or at once when the name changed.
 */
export class ProfileDirectory {
  readonly #recent = new Map<string, { name: string; at: number }>();

  constructor(private readonly deps: { cols: Collections; clock: Clock }) {}

  async touch(user: { id: string; name: string }): Promise<void> {
    const now = this.deps.clock.now();
    const seen = this.#recent.get(user.id);
    if (seen && seen.name === user.name && now.getTime() - seen.at < REFRESH_MS) return;
    await this.deps.cols.profiles.updateOne(
      { _id: user.id },
      { $set: { name: user.name, lastSeenAt: now }, $setOnInsert: { firstSeenAt: now } },
      { upsert: true },
    );
    if (this.#recent.size >= MAX_CACHED) this.#recent.clear();
    this.#recent.set(user.id, { name: user.name, at: now.getTime() });
  }

  /** The kinds of message the member asked to be notified by (`feature.kind`). */
  async notifications(userId: string): Promise<string[]> {
    const doc = await this.deps.cols.profiles.findOne({ _id: userId }, { projection: { notify: 1 } });
    return doc?.notify ?? [];
  }

  /** Turns one kind of notification on or off for the member; returns the kinds now on. */
  async setNotification(user: { id: string; name: string }, kind: string, on: boolean): Promise<string[]> {
    const now = this.deps.clock.now();
    const doc = await this.deps.cols.profiles.findOneAndUpdate(
      { _id: user.id },
      {
        ...(on ? { $addToSet: { notify: kind } } : { $pull: { notify: kind } }),
        $set: { name: user.name, lastSeenAt: now },
        $setOnInsert: { firstSeenAt: now },
      },
      { upsert: true, returnDocument: 'after', projection: { notify: 1 } },
    );
    return doc?.notify ?? [];
  }

  /** How a reminder (`feature.kind`) reaches the member: off, or by direct message or a mention. */
  async reminder(userId: string, kind: string): Promise<ReminderVia | 'off'> {
    const doc = await this.deps.cols.profiles.findOne(
      { _id: userId },
      { projection: { notify: 1, remindInChannel: 1 } },
    );
    if (!doc?.notify?.includes(kind)) return 'off';
    return doc.remindInChannel?.includes(kind) ? 'mention' : 'dm';
  }

  /** The reminders the member takes as a mention in a channel (the others come by direct message). */
  async remindedInChannel(userId: string): Promise<string[]> {
    const doc = await this.deps.cols.profiles.findOne(
      { _id: userId },
      { projection: { remindInChannel: 1 } },
    );
    return doc?.remindInChannel ?? [];
  }

  /** Chooses how one reminder reaches the member (whether it is on stays as it was). */
  async setReminderVia(user: { id: string; name: string }, kind: string, via: ReminderVia): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.cols.profiles.updateOne(
      { _id: user.id },
      {
        ...(via === 'mention'
          ? { $addToSet: { remindInChannel: kind } }
          : { $pull: { remindInChannel: kind } }),
        $set: { name: user.name, lastSeenAt: now },
        $setOnInsert: { firstSeenAt: now },
      },
      { upsert: true },
    );
  }

  /**
   * Of the members a message of `kind` mentions, those it may notify: the ones who turned that
   * kind on. Everyone else sees the mention without a notification.
   */
  async toNotify(kind: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const docs = await this.deps.cols.profiles
      .find({ _id: { $in: [...new Set(ids)] } }, { projection: { notify: 1 } })
      .toArray();
    return docs.filter((d) => d.notify?.includes(kind)).map((d) => d._id);
  }

  /** When the bot first saw the member (null: never). */
  async firstSeenAt(userId: string): Promise<Date | null> {
    const doc = await this.deps.cols.profiles.findOne({ _id: userId }, { projection: { firstSeenAt: 1 } });
    return doc?.firstSeenAt ?? null;
  }

  /** Members not seen since `before` (oldest first, at most `limit`). */
  async inactiveSince(before: Date, limit: number): Promise<string[]> {
    const docs = await this.deps.cols.profiles
      .find({ lastSeenAt: { $lt: before } }, { projection: { _id: 1 } })
      .sort({ lastSeenAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => d._id);
  }

  /** Forgets a member's row and this process's memory of them (a member forgotten on request). */
  async forget(id: string): Promise<void> {
    this.#recent.delete(id);
    await this.deps.cols.profiles.deleteOne({ _id: id });
  }

  async remove(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    for (const id of ids) this.#recent.delete(id);
    return (await this.deps.cols.profiles.deleteMany({ _id: { $in: ids } })).deletedCount;
  }

  async names(ids: string[]): Promise<Map<string, string>> {
    const docs = await this.deps.cols.profiles
      .find({ _id: { $in: ids } }, { projection: { name: 1 } })
      .toArray();
    return new Map(docs.map((d) => [d._id, d.name]));
  }

  /**
   * Members whose name contains `text` (any case) or whose id starts with it, most recently
   * seen first: the moderators' picker. A scan of the profiles, bounded by `limit` matches.
   */
  search(text: string, limit: number): Promise<ProfileDoc[]> {
    const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const byId = /^\d+$/.test(text) ? [{ _id: { $regex: `^${text}` } }] : [];
    return this.deps.cols.profiles
      .find({ $or: [...byId, { name: { $regex: escaped, $options: 'i' } }] })
      .sort({ lastSeenAt: -1 })
      .limit(limit)
      .toArray();
  }
}
