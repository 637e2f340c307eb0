import { loadImage } from 'canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { buttonId, FakeDiscord, type FakeUser, type VisibleMessage } from '../support/fakeDiscord.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('discord_economy');
const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };

describe('the Cookie economy through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t);
    await harness.deps.services.vault.fund({
      opId: 'bankroll',
      adminId: ADMIN_ID,
      amount: 1_000_000,
      reason: '',
    });
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  it('GIVEN the bakery posted by an admin WHEN a member presses Collect 20 times at once THEN one press pays and 19 privately say when to come back', async () => {
    const [bakery] = await fake.waitFor(fake.command(admin, 'admin', ['bakery', 'post']));
    expect(bakery?.ephemeral).toBe(false);
    expect(bakery?.embeds[0]?.title).toBe('🥐 The Crumb Saucer Bakery');
    const member = freshMember('mia');
    const collect = buttonId(bakery, 'Collect Cookies');
    expect(collect).toBe('cookies.bakery');
    const presses = Array.from({ length: 20 }, () => fake.click(member, bakery as VisibleMessage, collect));
    const replies = (await Promise.all(presses.map((p) => fake.waitFor(p)))).map((r) => r.at(-1));
    const paid = replies.filter((r) => r?.embeds[0]?.title === '🍪 Collected');
    const waits = replies.filter((r) => /^❌ You can do this again <t:\d+:R>\.$/.test(r?.content ?? ''));
    expect(paid).toHaveLength(1);
    expect(waits).toHaveLength(19);
    expect(replies.every((r) => r?.ephemeral)).toBe(true);
    const amount = Number(/collected \*\*(\d+) 🍪\*\*/.exec(paid[0]?.embeds[0]?.description ?? '')?.[1]);
    await harness.deps.ledger.flush();
    expect(await harness.deps.ledger.balanceOf('cookies', member.id)).toBe(amount);
    // The cooldown is the command's too.
    const [again] = await fake.waitFor(fake.command(member, 'cookies', ['collect']));
    expect(again?.content).toMatch(/^❌ You can do this again <t:\d+:R>\.$/);
  });

  it('GIVEN a blackjack hand on the table WHEN the bot restarts and the member presses Stand on the old message THEN the same hand ends', async () => {
    const member = freshMember('mia');
    await harness.deps.services.cookies.grant({
      opId: 'bj-chips',
      adminId: ADMIN_ID,
      to: member.id,
      amount: 5_000,
      reason: '',
    });
    let table: VisibleMessage | undefined;
    for (let deal = 0; deal < 20 && !table; deal++) {
      const [message] = await fake.waitFor(fake.command(member, 'games', ['blackjack'], { bet: 100 }));
      if (message?.components.length) table = message;
    }
    expect(table).toBeDefined();
    const before = table?.embeds[0]?.description ?? '';
    await harness.bot.stop();
    harness = await startFakeBot(fake, t);
    const [after] = await fake.waitFor(fake.click(member, table as VisibleMessage, buttonId(table, 'Stand')));
    expect(after?.via).toBe('update');
    const description = after?.embeds[0]?.description ?? '';
    expect(description.split('\n')[0]).toBe(before.split('\n')[0]); // the member's cards are unchanged
    expect(description).toMatch(/You won|A push|You lost/);
    expect(after?.components).toEqual([]);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a member WHEN they open their profile THEN they get a PNG card', async () => {
    const member = freshMember('mia');
    await harness.deps.services.cookies.grant({
      opId: 'profile-chips',
      adminId: ADMIN_ID,
      to: member.id,
      amount: 77,
      reason: '',
    });
    const replies = await fake.waitFor(fake.command(member, 'cookies', ['profile']));
    const card = replies.at(-1);
    expect(card?.embeds[0]?.description).toContain('**77 🍪**');
    const png = card?.files.find((f) => f.name === 'profile.png');
    const image = await loadImage(png?.data as Buffer);
    expect([image.width, image.height]).toEqual([900, 540]);
  });

  it('GIVEN a bot named in /cookies give or /cookies steal THEN the member is told bots hold no Cookies and nothing moves', async () => {
    const member = freshMember('mia');
    const robot: FakeUser = { ...freshMember('otherbot'), bot: true };
    await harness.deps.services.cookies.grant({
      opId: 'bot-chips',
      adminId: ADMIN_ID,
      to: member.id,
      amount: 300,
      reason: '',
    });
    for (const [path, options] of [
      [['give'], { user: robot.id, amount: 10 }],
      [['steal'], { user: robot.id }],
    ] as const) {
      const [reply] = await fake.waitFor(fake.command(member, 'cookies', [...path], options, [robot]));
      expect(reply?.ephemeral).toBe(true);
      expect(reply?.content).toBe(`❌ <@${robot.id}> is a bot: bots hold no Cookies. Pick a member.`);
    }
    await harness.deps.ledger.flush();
    expect(await harness.deps.ledger.balanceOf('cookies', member.id)).toBe(300);
    // The refused steal gave its cooldown back: a real attempt may follow at once.
    const [attempt] = await fake.waitFor(
      fake.command(member, 'cookies', ['steal'], { user: member.id }, [member]),
    );
    expect(attempt?.content).toBe('❌ You cannot rob yourself.');
  });
});
