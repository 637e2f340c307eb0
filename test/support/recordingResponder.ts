import type { DeferMode, Reply, Responder, SentMessage } from '../../src/interactions/types.js';

/**
 * A responder that keeps what the runtime sent, as Discord would show it: every reply, and a
 * message id for each public one (`message-1`, `message-2`, … in the order sent).
 */
export class RecordingResponder implements Responder {
  state: Responder['state'] = 'fresh';
  readonly sent: Reply[] = [];
  deferrals = 0;

  async defer(_mode: DeferMode): Promise<void> {
    this.deferrals += 1;
    this.state = 'deferred';
  }

  async send(reply: Reply): Promise<SentMessage | null> {
    this.state = 'replied';
    this.sent.push(reply);
    return reply.ephemeral ? null : { messageId: `message-${this.sent.length}` };
  }

  /** Everything sent as plain text: contents and embed descriptions. */
  text(): string {
    return this.sent
      .map((r) => [r.content ?? '', ...(r.embeds ?? []).map((e) => e.description ?? '')].join('\n'))
      .join('\n');
  }
}
