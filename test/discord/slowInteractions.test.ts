import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineCommand, defineComponentHandler } from '../../src/interactions/defineCommand.js';
import { MEMBER_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, startFakeBot } from '../support/discordHarness.js';
import { FakeDiscord } from '../support/fakeDiscord.js';

const t = useTestDatabase('slow_interactions');
const member = { id: MEMBER_ID, username: 'mia' };

/** Work that takes as long as the test wants: it finishes when `release()` is called. */
function gate() {
  let release: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { done, release };
}

describe('interactions slower than the safety deferral', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;
  let commandGate = gate();
  let buttonGate = gate();

  const press = defineComponent('slow.press', {});
  const slow = defineCommand({
    name: 'slow',
    description: 'Takes its time',
    access: 'everyone',
    category: 'Test',
    handler: {
      async run() {
        await commandGate.done;
        return {
          content: 'done thinking',
          buttons: [{ customId: press.build({}), label: 'Press', style: 'primary' }],
        };
      },
    },
    components: [
      defineComponentHandler(press, {
        async run() {
          await buttonGate.done;
          return { update: true, content: 'pressed', buttons: [] };
        },
      }),
    ],
  });

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t, { extraCommands: [slow], safetyDeferMs: 100 });
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  it('GIVEN a slow command THEN it is deferred in time and the deferral is then edited', async () => {
    commandGate = gate();
    const token = fake.command(member, 'slow', []);
    await fake.waitFor(token, (m) => m.some((x) => x.via === 'deferred'));
    commandGate.release();
    const messages = await fake.waitFor(token, (m) => m.some((x) => x.via === 'edit'));
    expect(messages.map((m) => m.via)).toEqual(['deferred', 'edit']);
    expect(messages[1]?.content).toBe('done thinking');
  });

  it('GIVEN a slow button THEN it is acknowledged silently and its message is updated afterwards', async () => {
    commandGate.release();
    const [prompt] = await fake.waitFor(fake.command(member, 'slow', []));
    expect(prompt?.via).toBe('reply');
    buttonGate = gate();
    const token = fake.click(member, prompt as NonNullable<typeof prompt>, 'slow.press');
    await fake.waitFor(token, (m) => m.some((x) => x.via === 'deferred'));
    const callback = fake.calls.find((c) => c.path.includes(token) && c.path.endsWith('/callback'));
    expect(callback?.body?.type).toBe(6);
    buttonGate.release();
    const messages = await fake.waitFor(token, (m) => m.some((x) => x.via === 'edit'));
    expect(messages.at(-1)?.content).toBe('pressed');
    expect(messages.at(-1)?.components).toEqual([]);
  });
});
