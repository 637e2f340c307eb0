import { loadImage } from 'canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { type DiscordBot, startDiscordBot } from '../../src/discord/discordBot.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import type { CommandModule } from '../../src/interactions/types.js';
import { checkInvariants } from '../../utils/ledger/invariants.js';
import { ADMIN_ID, MEMBER_ID, makeBotDeps, OTHER_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { FakeDiscord, type FakeUser } from '../support/fakeDiscord.js';
import { seedBalance } from '../support/ledgerHarness.js';

const t = useTestDatabase('discord_client');

const member: FakeUser = { id: MEMBER_ID, username: 'mia' };
const other: FakeUser = { id: OTHER_ID, username: 'otto' };
const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };

/** A command that fails unexpectedly, to see what a member gets then. */
const brokenCommand: CommandModule = {
  data: { name: 'broken', description: 'Always fails' },
  access: 'everyone',
  category: 'Test',
  async execute() {
    throw new Error('database exploded');
  },
};

/** A slow command that fails after it deferred publicly. */
const brokenRenderCommand: CommandModule = {
  data: { name: 'broken-render', description: 'Defers, then fails' },
  access: 'everyone',
  category: 'Test',
  defer: () => ({ ephemeral: false }),
  async execute() {
    throw new Error('renderer crashed');
  },
};

describe('the bot through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let bot: DiscordBot;
  let harness: ReturnType<typeof makeBotDeps>;

  beforeAll(async () => {
    await fake.start();
    harness = makeBotDeps(t.cols);
    const runtime = new InteractionRuntime(harness.deps, [...COMMANDS, brokenCommand, brokenRenderCommand]);
    bot = await startDiscordBot(runtime, harness.deps.log, { token: 'fake-token', apiUrl: fake.apiUrl });
  });

  afterAll(async () => {
    await bot?.stop();
    await fake.stop();
  });

  it('GIVEN a member WHEN they run /help THEN they privately see the member commands and no admin ones', async () => {
    const token = fake.command(member, 'help', []);
    const [reply] = await fake.waitFor(token);
    expect(reply?.via).toBe('reply');
    expect(reply?.ephemeral).toBe(true);
    const fields = reply?.embeds[0]?.fields ?? [];
    expect(fields.map((f) => f.name)).toContain('Cookies');
    expect(fields.map((f) => f.name)).not.toContain('Administration');
    expect(fields[1]?.value).toContain('/cookies balance');
    expect(JSON.stringify(fields)).not.toContain('/admin');
  });

  it('WHEN the member picks a topic in the /help menu THEN the same message shows its options', async () => {
    const [menuMessage] = await fake.waitFor(fake.command(member, 'help', []));
    const menu = menuMessage?.components[0]?.components[0];
    expect(menu?.options?.map((o) => o.value)).toContain('Cookies');
    const picked = fake.choose(
      member,
      menuMessage as NonNullable<typeof menuMessage>,
      menu?.custom_id as string,
      ['Cookies'],
    );
    const [update] = await fake.waitFor(picked);
    expect(update?.via).toBe('update');
    expect(update?.embeds[0]?.title).toBe('Help: Cookies');
    const give = update?.embeds[0]?.fields?.find((f) => f.name === '/cookies give');
    expect(give?.value).toContain('• `amount`: How many Cookies');
  });

  it('GIVEN 1234 Cookies WHEN the member runs /cookies balance THEN the reply shows 1,234', async () => {
    await seedBalance(harness.deps.ledger, MEMBER_ID, 1234);
    const token = fake.command(member, 'cookies', ['balance']);
    const [reply] = await fake.waitFor(token);
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.embeds[0]?.title).toBe('Cookie balance');
    expect(reply?.embeds[0]?.description).toContain('**1,234 🍪**');
  });

  it('GIVEN a member who is not an admin WHEN they run /admin runtime set THEN they are refused privately and nothing changes', async () => {
    const token = fake.command(member, 'admin', ['runtime', 'set'], { key: 'cookies.give_max', value: '5' });
    const [reply] = await fake.waitFor(token);
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).toBe('❌ You are not allowed to do that: it needs admin rights on this bot.');
    expect(await t.cols.runtimeConfig.countDocuments()).toBe(0);
    expect(harness.logs.some((l) => l.event === 'authority.refused' && l.userId === MEMBER_ID)).toBe(true);
  });

  it('GIVEN an admin WHEN they set a runtime value THEN it is stored with who changed it', async () => {
    const token = fake.command(admin, 'admin', ['runtime', 'set'], { key: 'cookies.give_max', value: '500' });
    const [reply] = await fake.waitFor(token);
    expect(reply?.content).toContain('1000000 → **500**');
    expect(await t.cols.runtimeConfig.findOne({ _id: 'cookies.give_max' })).toMatchObject({
      value: 500,
      updatedBy: ADMIN_ID,
    });
  });

  it('GIVEN a command that fails unexpectedly THEN the member sees a ref and the log has the same ref', async () => {
    const token = fake.command(member, 'broken', []);
    const [reply] = await fake.waitFor(token);
    expect(reply?.ephemeral).toBe(true);
    const ref = /Something went wrong \(ref ([0-9A-F]{8})\)/.exec(reply?.content ?? '')?.[1];
    expect(ref).toBeDefined();
    expect(reply?.content).not.toContain('database exploded');
    const logged = harness.logs.find((l) => l.event === 'interaction.failed' && l.ref === ref);
    expect((logged?.err as { message?: string })?.message).toBe('database exploded');
  });

  it('GIVEN a public deferral WHEN the command then fails THEN the placeholder is removed and the error is private', async () => {
    const token = fake.command(member, 'broken-render', []);
    const messages = await fake.waitFor(token, (m) => m.some((x) => x.via === 'followup'));
    expect(messages.map((m) => m.via)).toEqual(['followup']);
    expect(messages[0]?.ephemeral).toBe(true);
    expect(messages[0]?.content).toMatch(/Something went wrong \(ref [0-9A-F]{8}\)/);
    expect(fake.calls.some((c) => c.method === 'DELETE' && c.path.includes(token))).toBe(true);
  });

  it('WHEN a member asks for the leaderboard THEN the reply is deferred, then edited with a real PNG', async () => {
    await seedBalance(harness.deps.ledger, OTHER_ID, 99);
    const token = fake.command(member, 'cookies', ['leaderboard']);
    const messages = await fake.waitFor(token, (m) => m.some((x) => x.via === 'edit'));
    expect(messages[0]?.via).toBe('deferred');
    const edit = messages.find((m) => m.via === 'edit');
    expect(edit?.ephemeral).toBe(false);
    expect(edit?.embeds[0]?.image?.url).toBe('attachment://leaderboard.png');
    const png = edit?.files[0];
    expect(png?.name).toBe('leaderboard.png');
    expect(png?.data.subarray(1, 4).toString()).toBe('PNG');
    const image = await loadImage(png?.data as Buffer);
    expect([image.width, image.height]).toEqual([800, 96 + 2 * 52 + 32]);
  });

  it('GIVEN a give prompt WHEN the member double-clicks Give THEN the Cookies move once', async () => {
    const prompt = fake.command(member, 'cookies', ['give'], { user: OTHER_ID, amount: 100 }, [other]);
    const [message] = await fake.waitFor(prompt);
    expect(message?.content).toContain('Give **100 🍪**');
    const giveButton = message?.components[0]?.components.find((c) => c.label === 'Give');
    expect(giveButton).toBeDefined();

    const first = fake.click(member, message as NonNullable<typeof message>, giveButton?.custom_id as string);
    const second = fake.click(
      member,
      message as NonNullable<typeof message>,
      giveButton?.custom_id as string,
    );
    const [a] = await fake.waitFor(first);
    const [b] = await fake.waitFor(second);
    expect([a?.via, b?.via]).toEqual(['update', 'update']);
    expect([a?.content, b?.content].filter((c) => c?.includes('Already done'))).toHaveLength(1);
    await harness.deps.ledger.flush();
    expect(await harness.deps.ledger.balanceOf('cookies', MEMBER_ID)).toBe(1134);
    expect(await harness.deps.ledger.balanceOf('cookies', OTHER_ID)).toBe(199);
    expect((await checkInvariants(t.cols)).problems).toEqual([]);
  });

  it('GIVEN a give above the balance THEN the member is told privately what they have and need', async () => {
    const token = fake.command(other, 'cookies', ['give'], { user: MEMBER_ID, amount: 250 }, [member]);
    const [reply] = await fake.waitFor(token);
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).toBe('❌ Not enough: you have 199 🍪 but this needs 250 🍪.');
  });
});
