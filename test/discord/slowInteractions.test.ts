import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DiscordBot, startDiscordBot } from '../../src/discord/discordBot.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import type { CommandModule } from '../../src/interactions/types.js';
import { MEMBER_ID, makeBotDeps } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
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
  let bot: DiscordBot;
  let commandGate = gate();
  let buttonGate = gate();

  const slow: CommandModule = {
    data: { name: 'slow', description: 'Takes its time' },
    access: 'everyone',
    category: 'Test',
    async execute() {
      await commandGate.done;
      return {
        content: 'done thinking',
        buttons: [{ customId: 'slow:press', label: 'Press', style: 'primary' }],
      };
    },
    components: {
      press: {
        async run() {
          await buttonGate.done;
          return { update: true, content: 'pressed', buttons: [] };
        },
      },
    },
  };

  beforeAll(async () => {
    await fake.start();
    const { deps } = makeBotDeps(t.cols);
    const runtime = new InteractionRuntime(deps, [slow], { safetyDeferMs: 100 });
    bot = await startDiscordBot(runtime, deps.log, { token: 'fake-token', apiUrl: fake.apiUrl });
  });

  afterAll(async () => {
    await bot?.stop();
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
    const token = fake.click(member, prompt as NonNullable<typeof prompt>, 'slow:press');
    await fake.waitFor(token, (m) => m.some((x) => x.via === 'deferred'));
    const callback = fake.calls.find((c) => c.path.includes(token) && c.path.endsWith('/callback'));
    expect(callback?.body?.type).toBe(6);
    buttonGate.release();
    const messages = await fake.waitFor(token, (m) => m.some((x) => x.via === 'edit'));
    expect(messages.at(-1)?.content).toBe('pressed');
    expect(messages.at(-1)?.components).toEqual([]);
  });
});
