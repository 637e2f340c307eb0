import { z } from 'zod';
import type { Logger } from '../../src/logger.js';
import type { ChannelPoster } from '../../src/posting/channelPoster.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    admin: AuditLog;
  }
}

const AUDIT_POST = 'admin.audit.post';

/**
 * Admin actions for moderators to read: each is logged at once and posted to the channel in
 * `admin.audit_channel` by a durable task, so a post survives a restart and a slow or
 * failing channel never delays the admin's reply. The task id comes from the action's own
 * id, so a repeated action posts once.
 */
export class AuditLog {
  constructor(
    private readonly deps: {
      scheduler: Scheduler;
      poster: ChannelPoster;
      log: Logger;
      clock: { now(): Date };
    },
  ) {}

  async record(action: { id: string; actorId: string; text: string }): Promise<void> {
    this.deps.log.info(
      { event: 'admin.audit', actionId: action.id, actorId: action.actorId, text: action.text },
      'admin action',
    );
    await this.deps.scheduler.schedule({
      id: `${AUDIT_POST}:${action.id}`,
      kind: AUDIT_POST,
      dueAt: this.deps.clock.now(),
      payload: { text: action.text },
    });
  }

  tasks(): TaskHandler[] {
    return [
      defineTask(AUDIT_POST, z.object({ text: z.string() }), async ({ text }) => {
        // A channel that refuses posts stops them (the poster records why); that is not a task failure.
        await this.deps.poster.post('admin.audit_channel', { content: text });
      }),
    ];
  }
}
