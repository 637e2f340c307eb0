import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import type { CommandModule } from '../../src/interactions/types.js';
import { metrics } from '../../src/metrics.js';
import { makeBotDeps } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { commandInvocation } from '../support/invocations.js';
import { RecordingResponder } from '../support/recordingResponder.js';

const t = useTestDatabase('interaction_runtime');

const invocation = (commandName: string) => commandInvocation({ commandName });

function catalog(...commands: CommandModule[]) {
  return { commands, errorMessages: ASSEMBLY.errorMessages };
}

describe('interaction runtime', () => {
  it('GIVEN a shutdown WHEN an interaction is in flight THEN it finishes first and new ones are turned away', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = defineCommand({
      name: 'slow',
      description: 'Waits for the test',
      access: 'everyone',
      category: 'Test',
      handler: {
        async run() {
          await gate;
          return { content: 'finished' };
        },
      },
    });
    const runtime = new InteractionRuntime(makeBotDeps(t).deps, catalog(slow));
    const inFlight = new RecordingResponder();
    const pending = runtime.dispatch(invocation('slow'), inFlight);
    let drained = false;
    const draining = runtime.drain().then(() => {
      drained = true;
    });
    const late = new RecordingResponder();
    await runtime.dispatch(invocation('slow'), late);
    expect(late.sent[0]?.content).toContain('restarting');
    expect(drained).toBe(false);
    release();
    await pending;
    await draining;
    expect(inFlight.sent).toEqual([{ content: 'finished' }]);
  });

  it('GIVEN a public reply with onSent THEN the command learns the message it became; an ephemeral one never calls it, and a failing onSent only logs', async () => {
    const learned: string[] = [];
    const make = (name: string, ephemeral: boolean, fail = false) =>
      defineCommand({
        name,
        description: 'Remembers its message',
        access: 'everyone',
        category: 'Test',
        handler: {
          async run() {
            return {
              content: name,
              ephemeral,
              onSent: async ({ messageId }) => {
                if (fail) throw new Error('store down');
                learned.push(`${name}:${messageId}`);
              },
            };
          },
        },
      });
    const made = makeBotDeps(t);
    const runtime = new InteractionRuntime(
      made.deps,
      catalog(make('board', false), make('secret', true), make('broken', false, true)),
    );
    const board = new RecordingResponder();
    expect((await runtime.dispatch(invocation('board'), board)).outcome).toBe('ok');
    await runtime.dispatch(invocation('secret'), new RecordingResponder());
    const broken = new RecordingResponder();
    expect((await runtime.dispatch(invocation('broken'), broken)).outcome).toBe('ok');
    expect(learned).toEqual(['board:message-1']);
    expect(broken.sent).toHaveLength(1);
    expect(made.logs.some((line) => line.event === 'interaction.on_sent_failed')).toBe(true);
  });

  it('defers a command that declares it before running it', async () => {
    const rendered = defineCommand({
      name: 'render',
      description: 'Slow image',
      access: 'everyone',
      category: 'Test',
      handler: {
        defer: { ephemeral: false },
        async run() {
          return { content: 'image' };
        },
      },
    });
    const responder = new RecordingResponder();
    const result = await new InteractionRuntime(makeBotDeps(t).deps, catalog(rendered)).dispatch(
      invocation('render'),
      responder,
    );
    expect(result).toEqual({ outcome: 'ok' });
    expect(responder.deferrals).toBe(1);
    expect(responder.sent).toEqual([{ content: 'image' }]);
  });
});

describe('interaction metrics', () => {
  /** How many series the interaction metrics hold (what a Prometheus server stores). */
  async function series(): Promise<number> {
    const counted = await metrics.interactions.get();
    const timed = await metrics.interactionSeconds.get();
    return counted.values.length + timed.values.length;
  }

  it('GIVEN 500 different Give buttons pressed THEN the metrics count them under their family: no series per button', async () => {
    const { deps } = makeBotDeps(t);
    const runtime = new InteractionRuntime(deps, ASSEMBLY);
    const press = (n: number) =>
      runtime.dispatch(
        commandInvocation({
          kind: 'button',
          commandName: '',
          customId: `cookies.give:prompt${n}:800000000000000002`,
          messageId: `message-${n}`,
        }),
        new RecordingResponder(),
      );
    await press(0);
    const before = await series();
    for (let n = 1; n <= 500; n++) await press(n);
    expect(await series()).toBe(before);
    const counted = await metrics.interactions.get();
    expect(counted.values.map((v) => v.labels.command)).toContain('button cookies.give');
    expect(counted.values.some((v) => String(v.labels.command).includes('prompt'))).toBe(false);
  });
});
