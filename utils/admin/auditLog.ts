import { z } from 'zod';
import { DAY_MS } from '../../src/clock.js';
import type { Logger } from '../../src/logger.js';
import type { ChannelPoster } from '../../src/posting/channelPoster.js';
import { currentServer, inServer } from '../../src/runtimeConfig/serverContext.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { AUDIT_KINDS, type AuditKind } from './auditKinds.js';
import type { AuditDoc, AuditFilter, AuditPosition, AuditStore } from './auditStore.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    admin: AuditLog;
  }
}

const AUDIT_POST = 'admin.audit.post';
/** How long the audit trail keeps an entry (docs/operating.md, "Moderation"). */
export const AUDIT_KEPT_MS = 365 * DAY_MS;

/** One action to audit: what happened (`kind`), who did it, whom it concerns, and its line. */
export interface AuditAction {
  /** The action's own id: a repeated record of it keeps one entry and posts once. */
  id: string;
  kind: AuditKind;
  actorId: string;
  /** The member the action concerns, when it concerns one. */
  subjectId?: string;
  /** The line for the audit channel, in the server's language. */
  text: string;
}

/** The entry as its post task carries it: a task written before entries were kept has none. */
const entryPayload = z.object({
  id: z.string(),
  kind: z.enum(AUDIT_KINDS),
  actorId: z.string(),
  subjectId: z.string().optional(),
  at: z.coerce.date(),
});

/**
 * Admin actions for moderators to read: each is logged at once, kept in the audit trail
 * (`admin_audit`, read by the portal) and posted to the channel in `admin.audit_channel` by a
 * durable task, so a post survives a restart and a slow or failing channel never delays the
 * admin's reply. The task id comes from the action's own id, so a repeated action posts once.
 */
export class AuditLog {
  constructor(
    private readonly deps: {
      store: AuditStore;
      scheduler: Scheduler;
      poster: ChannelPoster;
      log: Logger;
      clock: { now(): Date };
    },
  ) {}

  /**
   * Keeps the entry and plans its post, the two writes at once, so the admin's reply waits about
   * as long as for the post alone. The post's task carries the entry too and keeps it before posting: an entry whose
   * own write failed (the database faltered) is kept when the task runs, and the admin's action,
   * already done, is not reported as failed for it. Only a task that could not be planned fails
   * the record, as it always did.
   */
  async record(action: AuditAction): Promise<void> {
    const entry = toEntry(action, this.deps.clock.now());
    this.deps.log.info(
      {
        event: 'admin.audit',
        actionId: action.id,
        kind: action.kind,
        actorId: action.actorId,
        text: action.text,
      },
      'admin action',
    );
    const [kept, planned] = await Promise.allSettled([
      this.deps.store.keep(entry),
      this.deps.scheduler.schedule({
        id: `${AUDIT_POST}:${action.id}`,
        kind: AUDIT_POST,
        dueAt: entry.at,
        // An action in a server is posted to that server's audit channel; one taken on the web,
        // for the whole bot, to every audit channel.
        payload: { text: action.text, entry: toPayload(entry), ...serverOf() },
      }),
    ]);
    if (planned.status === 'rejected') throw planned.reason;
    if (kept.status === 'rejected') {
      this.deps.log.warn(
        { event: 'admin.audit.keep_failed', actionId: action.id, err: kept.reason },
        'audit entry not kept yet; its post task keeps it',
      );
    }
  }

  /** A page of the trail, newest first. */
  entries(filter: AuditFilter, options: { before?: AuditPosition; limit: number }): Promise<AuditDoc[]> {
    return this.deps.store.page(filter, options);
  }

  /** Removes the entries older than a year at `now` (the hourly retention). */
  prune(now: Date): Promise<number> {
    return this.deps.store.removeBefore(new Date(now.getTime() - AUDIT_KEPT_MS));
  }

  tasks(): TaskHandler[] {
    return [
      defineTask(
        AUDIT_POST,
        z.object({ text: z.string(), entry: entryPayload.optional(), guildId: z.string().optional() }),
        async ({ text, entry, guildId }, task) => {
          if (entry) await this.deps.store.keep(toEntry({ ...entry, text }, entry.at));
          const post = { content: text, once: task.id };
          const posted = await inServer(guildId, () => this.deps.poster.post('admin.audit_channel', post));
          // A channel that refuses posts stops them (the poster records why): not a task failure.
          // An answer that never came is: the task runs again, and Discord keeps it one message.
          if (posted.status === 'failed' && !posted.lasting)
            throw new Error(`the audit post was not answered: ${posted.reason}`);
        },
      ),
    ];
  }
}

/** The server the action was taken in, for its post task (none on the web). */
function serverOf(): { guildId?: string } {
  const guildId = currentServer();
  return guildId ? { guildId } : {};
}

/** The stored entry of an action: no `subjectId` field where it concerns no one. */
function toEntry(action: AuditAction, at: Date): AuditDoc {
  const { id, kind, actorId, subjectId, text } = action;
  return { _id: id, kind, actorId, ...(subjectId === undefined ? {} : { subjectId }), text, at };
}

/** The entry as the post task carries it (its text is the task's own). */
function toPayload(entry: AuditDoc): z.input<typeof entryPayload> {
  const { _id, text: _text, at, ...about } = entry;
  return { id: _id, ...about, at: at.toISOString() };
}
