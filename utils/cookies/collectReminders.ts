import { z } from 'zod';
import { type Clock, DAY_MS, HOUR_MS } from '../../src/clock.js';
import type { Logger } from '../../src/logger.js';
import type { ProfileDirectory, ReminderVia } from '../../src/profiles/profileDirectory.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { inServer } from '../../src/runtimeConfig/serverContext.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { CollectStore } from './collectStore.js';
import type { ReminderStore } from './reminderStore.js';

/** The reminders of collecting a member may turn on (`/notifications`), as the feature declares them. */
export const COLLECT_REMINDERS = ['collect_ready', 'streak_risk'] as const;
export type CollectReminderKind = (typeof COLLECT_REMINDERS)[number];

const TASK_KIND = 'cookies.reminder';

/** Where and how a member collected: where a mention reminds them, and in which language. */
export interface CollectPlace {
  guildId: string | null;
  /** The channel of the collect (the command's, or the bakery's message's); null when not known. */
  channelId: string | null;
  /** The member's language as the collect showed it (their client's, else the server's). */
  locale: string;
}

/** What a collect leaves for its reminders: when it happened, when the next may, the streak it made. */
export interface CollectMark {
  lastAt: Date;
  until: Date;
  streak: number;
}

/** The moment a streak breaks: the end of the UTC day after the last collect's (`nextStreak`). */
export function streakBreaksAt(lastAt: Date): Date {
  return new Date((Math.floor(lastAt.getTime() / DAY_MS) + 2) * DAY_MS);
}

/**
 * When each reminder of a collect falls due: "collect ready" when its cooldown ends; "streak at
 * risk" `hoursBefore` the streak breaks, never before the member may collect again, and none
 * when the cooldown outlasts the streak (nothing could keep it).
 */
export function reminderTimes(
  mark: CollectMark,
  hoursBefore: number,
): Record<CollectReminderKind, Date | null> {
  const breaksAt = streakBreaksAt(mark.lastAt).getTime();
  const risk = Math.max(breaksAt - hoursBefore * HOUR_MS, mark.until.getTime());
  return { collect_ready: mark.until, streak_risk: risk < breaksAt ? new Date(risk) : null };
}

/** A reminder's task id: one per member, kind and due time, so planning it twice plans it once. */
export function reminderTaskId(kind: CollectReminderKind, userId: string, dueAt: Date): string {
  return `${TASK_KIND}.${kind}:${userId}:${dueAt.getTime()}`;
}

const payloadSchema = z.object({
  userId: z.string(),
  kind: z.enum(COLLECT_REMINDERS),
  streak: z.number().int(),
  /** When the streak breaks (ms), as the collect that planned it left it. */
  breaksAt: z.number(),
  guildId: z.string().nullable(),
  channelId: z.string().nullable(),
  locale: z.string(),
});

/** A reminder due now, for a member who still wants it, and how they want it. */
export interface DueReminder extends Omit<z.output<typeof payloadSchema>, 'breaksAt'> {
  via: ReminderVia;
  /** When the streak breaks (what "streak at risk" names). */
  breaksAt: Date;
}

interface CollectRemindersDeps {
  scheduler: Scheduler;
  profiles: ProfileDirectory;
  collects: CollectStore;
  sent: ReminderStore;
  runtimeConfig: RuntimeConfig;
  clock: Clock;
  log: Logger;
}

/**
 * A member's reminders of collecting (COOKIE_LOGIC.md, "Reminders"): each collect plans the ones
 * the member turned on, as durable tasks, and drops those the collect before it planned. A task
 * sends nothing to a member who turned its reminder off or whose later collect changed it, and
 * sends at most once: a record claimed before sending (`ReminderStore`) stops a second run.
 */
export class CollectReminders {
  constructor(private readonly deps: CollectRemindersDeps) {}

  /**
   * After a collect: this collect's reminders that the member has on are planned, and the
   * previous collect's of those kinds dropped (a task of a kind turned off since finds it off).
   */
  async plan(
    userId: string,
    previous: CollectMark | null,
    mark: CollectMark,
    place: CollectPlace,
  ): Promise<void> {
    const notifications = new Set(await this.deps.profiles.notifications(userId));
    const kinds = COLLECT_REMINDERS.filter((kind) => notifications.has(`cookies.${kind}`));
    if (kinds.length === 0) return;
    const hoursBefore = await this.deps.runtimeConfig.get('cookies.reminder_streak_h');
    const before = previous ? reminderTimes(previous, hoursBefore) : null;
    const times = reminderTimes(mark, hoursBefore);
    for (const kind of kinds) {
      const dueAt = times[kind];
      // A second collect on the same day may call for the same reminder: it stays as planned.
      const dropped = before?.[kind];
      if (dropped && dropped.getTime() !== dueAt?.getTime())
        await this.deps.scheduler.cancel(reminderTaskId(kind, userId, dropped));
      if (!dueAt) continue;
      await this.deps.scheduler.schedule({
        id: reminderTaskId(kind, userId, dueAt),
        kind: TASK_KIND,
        dueAt,
        payload: {
          userId,
          kind,
          streak: mark.streak,
          breaksAt: streakBreaksAt(mark.lastAt).getTime(),
          ...place,
        } satisfies z.input<typeof payloadSchema>,
      });
    }
  }

  /**
   * The reminders' task. `deliver` sends one and throws when it may succeed later (the task is
   * tried again, its claim given back); what it returns is logged.
   */
  tasks(deliver: (reminder: DueReminder) => Promise<string>): TaskHandler[] {
    return [
      defineTask(TASK_KIND, payloadSchema, (payload, task) =>
        inServer(payload.guildId, async () => {
          const due = await this.#stillWanted(payload, task.dueAt);
          if (!due) return;
          const id = task.id;
          if (
            !(await this.deps.sent.claim(
              { id, userId: payload.userId, kind: payload.kind },
              this.deps.clock.now(),
            ))
          )
            return;
          let outcome: string;
          try {
            outcome = await deliver(due);
          } catch (error) {
            await this.deps.sent.release(id);
            throw error;
          }
          this.deps.log.info(
            { event: 'cookies.reminder', taskId: id, userId: payload.userId, kind: payload.kind, outcome },
            `reminder ${payload.kind}: ${outcome}`,
          );
        }),
      ),
    ];
  }

  /**
   * The reminder as it goes out, or null when its member turned it off or collected since in a
   * way that changed it: "collect ready" holds while the cooldown still ends at its due time,
   * "streak at risk" while the streak still breaks when it said (a collect the same day keeps it).
   */
  async #stillWanted(payload: z.output<typeof payloadSchema>, dueAt: Date): Promise<DueReminder | null> {
    const via = await this.deps.profiles.reminder(payload.userId, `cookies.${payload.kind}`);
    if (via === 'off') return null;
    const collect = await this.deps.collects.get(payload.userId);
    if (!collect) return null;
    const current =
      payload.kind === 'collect_ready'
        ? collect.until.getTime() === dueAt.getTime()
        : streakBreaksAt(collect.lastAt).getTime() === payload.breaksAt;
    return current ? { ...payload, via, breaksAt: new Date(payload.breaksAt) } : null;
  }
}
