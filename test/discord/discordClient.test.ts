import { loadImage } from 'canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { buttonId, FakeDiscord, type FakeUser, type VisibleMessage } from '../support/fakeDiscord.js';
import { booksProblems, seedBalance } from '../support/ledgerHarness.js';

const t = useTestDatabase('discord_client');

const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };

/** A command that fails unexpectedly, to see what a member gets then. */
const brokenCommand = defineCommand({
  name: 'broken',
  description: 'Always fails',
  access: 'everyone',
  category: 'Test',
  handler: {
    async run() {
      throw new Error('database exploded');
    },
  },
});

/** A slow command that fails after it deferred publicly. */
const brokenRenderCommand = defineCommand({
  name: 'broken-render',
  description: 'Defers, then fails',
  access: 'everyone',
  category: 'Test',
  handler: {
    defer: { ephemeral: false },
    async run() {
      throw new Error('renderer crashed');
    },
  },
});

// Each test uses members of its own (freshMember), so it passes alone and in any order.
describe('the bot through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t, { extraCommands: [brokenCommand, brokenRenderCommand] });
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  it('GIVEN a member WHEN they run /help THEN they privately see the member commands and no admin ones', async () => {
    const member = freshMember('mia');
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
    const member = freshMember('mia');
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
    const member = freshMember('mia');
    await seedBalance(harness.deps.ledger, member.id, 1234);
    const token = fake.command(member, 'cookies', ['balance']);
    const [reply] = await fake.waitFor(token);
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.embeds[0]?.title).toBe('Cookie balance');
    expect(reply?.embeds[0]?.description).toContain('**1,234 🍪**');
  });

  it('GIVEN a member who is not an admin WHEN they run /settings set THEN they are refused privately and nothing changes', async () => {
    const member = freshMember('mia');
    const token = fake.command(member, 'settings', ['set'], {
      key: 'cookies.leaderboard_size',
      value: '5',
    });
    const [reply] = await fake.waitFor(token);
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).toBe(
      '❌ You are not allowed to do that: it needs server manager rights on this bot.',
    );
    expect(await t.cols.runtimeConfig.countDocuments({ _id: 'cookies.leaderboard_size' })).toBe(0);
    expect(harness.logs.some((l) => l.event === 'authority.refused' && l.userId === member.id)).toBe(true);
  });

  it('GIVEN an admin WHEN they set a runtime value THEN it is stored with who changed it', async () => {
    const token = fake.command(admin, 'settings', ['set'], {
      key: 'cookies.leaderboard_size',
      value: '12',
    });
    const [reply] = await fake.waitFor(token);
    expect(reply?.content).toContain('→ **12**');
    expect(await t.cols.runtimeConfig.findOne({ _id: 'cookies.leaderboard_size' })).toMatchObject({
      value: 12,
      updatedBy: ADMIN_ID,
    });
  });

  it('WHEN an admin types a setting key THEN autocomplete suggests the matching keys with their values', async () => {
    const token = fake.autocomplete(admin, 'settings', ['set'], { key: 'give', value: '' }, 'key');
    const choices = await fake.suggestions(token);
    expect(choices.map((c) => c.value)).toEqual([
      'cookies.give_enabled',
      'cookies.give_max',
      'cookies.give_receive_daily_max',
    ]);
    expect(choices[0]?.name).toBe('cookies.give_enabled (now on)');
    const member = freshMember('mia');
    const refused = fake.autocomplete(member, 'settings', ['set'], { key: 'give', value: '' }, 'key');
    expect(await fake.suggestions(refused)).toEqual([]);
  });

  it('GIVEN a command that fails unexpectedly THEN the member sees a ref and the log has the same ref', async () => {
    const member = freshMember('mia');
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
    const member = freshMember('mia');
    const token = fake.command(member, 'broken-render', []);
    const messages = await fake.waitFor(token, (m) => m.some((x) => x.via === 'followup'));
    expect(messages.map((m) => m.via)).toEqual(['followup']);
    expect(messages[0]?.ephemeral).toBe(true);
    expect(messages[0]?.content).toMatch(/Something went wrong \(ref [0-9A-F]{8}\)/);
    expect(fake.calls.some((c) => c.method === 'DELETE' && c.path.includes(token))).toBe(true);
  });

  it('WHEN a member asks for the leaderboard THEN the reply is deferred, then edited with a real PNG', async () => {
    const member = freshMember('mia');
    await seedBalance(harness.deps.ledger, member.id, 99);
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
    const rows = (await harness.deps.services.cookies.leaderboard(25)).length;
    expect(rows).toBeGreaterThan(0);
    expect([image.width, image.height]).toEqual([960, 96 + rows * 52 + 32]);

    const again = await fake.waitFor(fake.command(member, 'cookies', ['leaderboard']));
    expect(again.at(-1)?.ephemeral).toBe(true);
    expect(again.at(-1)?.content).toMatch(/^❌ You can do this again <t:\d+:R>\.$/);
  });

  it('GIVEN a give prompt WHEN the member double-clicks Give THEN the Cookies move once', async () => {
    const [member, other] = [freshMember('mia'), freshMember('otto')];
    await seedBalance(harness.deps.ledger, member.id, 1234);
    const prompt = fake.command(member, 'cookies', ['give'], { user: other.id, amount: 100 }, [other]);
    const [message] = await fake.waitFor(prompt);
    expect(message?.content).toContain('Give **100 🍪**');
    const give = buttonId(message, 'Give');
    const first = fake.click(member, message as VisibleMessage, give);
    const second = fake.click(member, message as VisibleMessage, give);
    const [a] = await fake.waitFor(first);
    const [b] = await fake.waitFor(second);
    expect([a?.via, b?.via]).toEqual(['update', 'update']);
    expect([a?.content, b?.content].filter((c) => c?.includes('Already done'))).toHaveLength(1);
    await harness.deps.ledger.flush();
    expect(await harness.deps.ledger.balanceOf('cookies', member.id)).toBe(1134);
    expect(await harness.deps.ledger.balanceOf('cookies', other.id)).toBe(100);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a give above the balance THEN the member is told privately what they have and need', async () => {
    const [member, other] = [freshMember('mia'), freshMember('otto')];
    await seedBalance(harness.deps.ledger, other.id, 199);
    const token = fake.command(other, 'cookies', ['give'], { user: member.id, amount: 250 }, [member]);
    const [reply] = await fake.waitFor(token);
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).toBe('❌ Not enough: you have 199 🍪 but this needs 250 🍪.');
  });

  it('GIVEN a member whose Discord speaks German WHEN they run /help THEN the help, its menu and its command names are German', async () => {
    const member = freshMember('mia', 'de');
    const [reply] = await fake.waitFor(fake.command(member, 'help', []));
    expect(reply?.embeds[0]?.title).toBe('Was du tun kannst');
    const fields = reply?.embeds[0]?.fields ?? [];
    expect(fields.map((f) => f.name).slice(0, 2)).toEqual(['Allgemein', 'Kekse']);
    expect(fields[1]?.value).toContain(
      '`/kekse schenken` — Schenk einem anderen Mitglied einige deiner Kekse',
    );
    const menu = reply?.components[0]?.components[0];
    const [topic] = await fake.waitFor(
      fake.choose(member, reply as VisibleMessage, menu?.custom_id as string, ['Kekse']),
    );
    expect(topic?.embeds[0]?.title).toBe('Hilfe: Kekse');
  });

  it('GIVEN a German member without enough Cookies WHEN they give THEN the refusal is German, numbers written the German way', async () => {
    const [member, other] = [freshMember('mia', 'de'), freshMember('otto')];
    await seedBalance(harness.deps.ledger, member.id, 1_500);
    const [reply] = await fake.waitFor(
      fake.command(member, 'cookies', ['give'], { user: other.id, amount: 2_500 }, [other]),
    );
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).toBe('❌ Nicht genug: Du hast 1.500 🍪, brauchst aber 2.500 🍪.');
  });

  it("GIVEN a member whose language the bot does not speak THEN it answers in the server's language", async () => {
    const member = freshMember('mia', 'fr');
    fake.guildLocale = 'de';
    try {
      const [reply] = await fake.waitFor(fake.command(member, 'cookies', ['balance']));
      expect(reply?.embeds[0]?.description).toBe('Du hast **0 🍪**.');
    } finally {
      fake.guildLocale = 'en-US';
    }
  });

  it('GIVEN a give prompt WHEN someone else presses its Give button THEN they are told whose it is and nothing moves', async () => {
    const [member, other] = [freshMember('mia'), freshMember('otto')];
    await seedBalance(harness.deps.ledger, member.id, 50);
    const [message] = await fake.waitFor(
      fake.command(member, 'cookies', ['give'], { user: other.id, amount: 20 }, [other]),
    );
    const [reply] = await fake.waitFor(
      fake.click(other, message as VisibleMessage, buttonId(message, 'Give')),
    );
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).toBe(
      `❌ This button belongs to <@${member.id}>. Run the command yourself to get your own.`,
    );
    expect(await harness.deps.ledger.balanceOf('cookies', member.id)).toBe(50);
  });

  it('GIVEN a give prompt WHEN an admin switches giving off before Give is pressed THEN nothing moves', async () => {
    const [member, other] = [freshMember('mia'), freshMember('otto')];
    await seedBalance(harness.deps.ledger, member.id, 50);
    const [message] = await fake.waitFor(
      fake.command(member, 'cookies', ['give'], { user: other.id, amount: 20 }, [other]),
    );
    await fake.waitFor(
      fake.command(admin, 'settings', ['set'], { key: 'cookies.give_enabled', value: 'off' }),
    );
    try {
      const [reply] = await fake.waitFor(
        fake.click(member, message as VisibleMessage, buttonId(message, 'Give')),
      );
      expect(reply?.content).toBe('❌ Giving Cookies is switched off right now.');
      expect(await harness.deps.ledger.balanceOf('cookies', other.id)).toBe(0);
    } finally {
      await fake.waitFor(
        fake.command(admin, 'settings', ['set'], { key: 'cookies.give_enabled', value: 'on' }),
      );
    }
  });

  it('GIVEN an audit channel WHEN an admin grants Cookies THEN the grant is posted there through Discord', async () => {
    const member = freshMember('mia');
    const audit = '900000000000000077';
    await fake.waitFor(
      fake.command(admin, 'settings', ['set'], { key: 'admin.audit_channel', value: `<#${audit}>` }),
    );
    await fake.waitFor(
      fake.command(admin, 'admin', ['cookies', 'grant'], { user: member.id, amount: 25, reason: 'quiz' }, [
        member,
      ]),
    );
    await harness.deps.scheduler.runDue();
    const posted = fake.channelPosts.get(audit) ?? [];
    expect(posted.map((m) => m.content)).toContain(
      `🎁 <@${ADMIN_ID}> granted 25 🍪 to <@${member.id}>: quiz`,
    );
    expect(fake.calls.some((c) => c.method === 'POST' && c.path === `/channels/${audit}/messages`)).toBe(
      true,
    );
  });

  it('GIVEN Discord creating the audit post but answering 500, also to every retry THEN the task posts it again later, and it is one message', async () => {
    const member = freshMember('mia');
    const audit = '900000000000000079';
    await fake.waitFor(
      fake.command(admin, 'settings', ['set'], { key: 'admin.audit_channel', value: audit }),
    );
    await harness.deps.scheduler.runDue();
    // discord.js asks four times (a 5xx is retried three times); each answer is lost.
    fake.failPosts({ times: 4 });
    await fake.waitFor(
      fake.command(admin, 'admin', ['cookies', 'grant'], { user: member.id, amount: 31, reason: 'nonce' }, [
        member,
      ]),
    );
    const granted = `🎁 <@${ADMIN_ID}> granted 31 🍪 to <@${member.id}>: nonce`;
    const requests = () => fake.calls.filter((c) => c.path === `/channels/${audit}/messages`).length;
    const before = requests();
    await harness.deps.scheduler.runDue();
    expect(requests() - before).toBe(4);
    expect(harness.logs.some((l) => l.event === 'post.failed' && l.channelId === audit)).toBe(true);
    // The task's next attempt, its answer this time.
    harness.clock.advance(60_000);
    await harness.deps.scheduler.runDue();
    expect(requests() - before).toBe(5);
    const posted = (fake.channelPosts.get(audit) ?? []).filter((m) => m.content === granted);
    expect(posted).toHaveLength(1);
  });

  it('GIVEN a channel the bot may not post in THEN posts stop, the log names the channel and the admin sees why', async () => {
    const member = freshMember('mia');
    const closed = '900000000000000078';
    fake.forbiddenChannels.add(closed);
    await fake.waitFor(
      fake.command(admin, 'settings', ['set'], { key: 'admin.audit_channel', value: closed }),
    );
    await fake.waitFor(
      fake.command(admin, 'admin', ['cookies', 'grant'], { user: member.id, amount: 5 }, [member]),
    );
    await harness.deps.scheduler.runDue();
    expect(harness.logs.some((l) => l.event === 'post.channel_stopped' && l.channelId === closed)).toBe(true);
    const [show] = await fake.waitFor(fake.command(admin, 'settings', ['show'], { feature: 'admin' }));
    expect(show?.embeds[0]?.fields?.[0]?.value).toContain('posts stopped');
    expect(show?.embeds[0]?.fields?.[0]?.value).toContain('Missing Permissions');

    const postsBefore = fake.calls.filter((c) => c.path === `/channels/${closed}/messages`).length;
    await fake.waitFor(
      fake.command(admin, 'admin', ['cookies', 'grant'], { user: member.id, amount: 5 }, [member]),
    );
    await harness.deps.scheduler.runDue();
    expect(fake.calls.filter((c) => c.path === `/channels/${closed}/messages`)).toHaveLength(postsBefore);

    fake.forbiddenChannels.delete(closed);
    await fake.waitFor(
      fake.command(admin, 'settings', ['set'], { key: 'admin.audit_channel', value: closed }),
    );
    await harness.deps.scheduler.runDue();
    expect(
      (fake.channelPosts.get(closed) ?? []).some((m) =>
        m.content.includes('changed **admin.audit_channel**'),
      ),
    ).toBe(true);
  });
});
