import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { buttonId, CHANNEL_ID, FakeDiscord, type FakeUser, GUILD_ID } from '../support/fakeDiscord.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { stockShelf } from '../support/shopShelf.js';
import { waitFor } from '../support/waitFor.js';

const t = useTestDatabase('discord_trade');

describe('/trade through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t);
    await harness.deps.services.vault.fund({
      opId: 'bankroll',
      adminId: ADMIN_ID,
      amount: 100_000,
      reason: '',
    });
    await stockShelf(
      harness.deps,
      { guildId: GUILD_ID, actorId: ADMIN_ID },
      { name: 'Golden ticket', price: 100 },
    );
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  /** A member with 1,000 Cookies and one Golden ticket: the ticket's id. */
  async function stocked(member: FakeUser): Promise<string> {
    fake.addMember(member);
    await harness.deps.services.cookies.grant({
      opId: `grant-${member.id}`,
      adminId: ADMIN_ID,
      to: member.id,
      amount: 1_000,
      reason: '',
    });
    const bought = await harness.deps.services.shop.buy({
      opId: `buy-${member.id}`,
      guildId: GUILD_ID,
      userId: member.id,
      item: 'Golden ticket',
      roleIds: [],
    });
    return bought.purchase._id;
  }

  it('GIVEN two members who both put in and both confirm THEN the board shows the trade done, and an outdated Confirm is refused privately', async () => {
    const ana = freshMember('ana');
    const ben = freshMember('ben');
    const anaTicket = await stocked(ana);
    const benTicket = await stocked(ben);

    const [board] = await fake.waitFor(fake.command(ana, 'trade', ['with'], { user: ben.id }, [ben]));
    expect(board?.ephemeral).toBe(false);
    expect(board?.embeds[0]?.title).toBe('🤝 Trade');
    const tradeId = (await harness.deps.services.trades.mine(ana.id, GUILD_ID))._id;
    await waitFor(async () => (await harness.deps.services.trades.get(tradeId))?.messageId, {
      what: 'the board remembered',
    });

    const [cookies] = await fake.waitFor(fake.command(ana, 'trade', ['cookies'], { amount: 300 }));
    expect(cookies?.ephemeral).toBe(true);
    expect(cookies?.content).toContain('300');
    await fake.waitFor(fake.command(ana, 'trade', ['add'], { item: anaTicket }));

    // Ben picks his ticket from the menu the board's Add item button shows him alone.
    const [menu] = await fake.waitFor(fake.click(ben, board as never, buttonId(board, 'Add item')));
    expect(menu?.ephemeral).toBe(true);
    const pick = menu?.components[0]?.components[0];
    expect(pick?.options?.map((o) => o.value)).toEqual([benTicket]);
    const [picked] = await fake.waitFor(fake.choose(ben, menu as never, pick?.custom_id ?? '', [benTicket]));
    expect(picked?.content).toBe('✅ **Golden ticket** is in the trade. Both of you confirm again.');
    // The board in the channel was brought up to date.
    const edits = await waitFor(
      () => {
        const latest = fake.channelEdits
          .get(CHANNEL_ID)
          ?.filter((m) => m.id === board?.id)
          .at(-1);
        return latest?.embeds[0]?.fields?.every((f) => f.value.includes('Golden ticket'))
          ? latest
          : undefined;
      },
      { what: 'the board with both tickets' },
    );
    expect(edits.embeds[0]?.fields?.[0]?.value).toContain('300');

    // The first board's Confirm carries its revision: pressed now, it is refused with what changed.
    const [stale] = await fake.waitFor(fake.click(ana, board as never, buttonId(board, 'Confirm')));
    expect(stale?.ephemeral).toBe(true);
    expect(stale?.content).toContain('The trade changed after the board you pressed on');
    expect(stale?.content).toContain(`<@${ben.id}> put in **Golden ticket**`);

    const [fresh] = await fake.waitFor(fake.command(ana, 'trade', ['show']));
    const [anaOk] = await fake.waitFor(fake.click(ana, fresh as never, buttonId(fresh, 'Confirm')));
    expect(anaOk?.via).toBe('update');
    const [done] = await fake.waitFor(fake.click(ben, anaOk as never, buttonId(anaOk, 'Confirm')));
    expect(done?.via).toBe('update');
    expect(done?.embeds[0]?.description).toBe("✅ Done: each side got the other's offer.");
    expect(done?.components).toEqual([]);

    await harness.deps.ledger.flush();
    expect(await harness.deps.cookieEconomy.balance(ana.id)).toBe(600);
    expect(await harness.deps.cookieEconomy.balance(ben.id)).toBe(1_200);
    expect((await harness.deps.services.shop.owned(ben.id)).map((u) => u._id)).toEqual([anaTicket]);
    expect((await harness.deps.services.shop.owned(ana.id)).map((u) => u._id)).toEqual([benTicket]);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a trade nobody confirms WHEN its time runs out THEN its timer calls it off on the board and the Cookies come back', async () => {
    const ana = freshMember('ana');
    const ben = freshMember('ben');
    await stocked(ana);
    const [board] = await fake.waitFor(fake.command(ana, 'trade', ['with'], { user: ben.id }, [ben]));
    const tradeId = (await harness.deps.services.trades.mine(ana.id, GUILD_ID))._id;
    await waitFor(async () => (await harness.deps.services.trades.get(tradeId))?.messageId, {
      what: 'the board remembered',
    });
    await fake.waitFor(fake.command(ana, 'trade', ['cookies'], { amount: 250 }));
    harness.clock.advance(16 * 60_000);
    await harness.deps.scheduler.runDue();
    const ended = await waitFor(
      () =>
        fake.channelEdits
          .get(CHANNEL_ID)
          ?.filter((m) => m.id === board?.id)
          .find((m) => m.embeds[0]?.description?.startsWith('❌ Called off')),
      { what: 'the board called off' },
    );
    expect(ended.components).toEqual([]);
    await harness.deps.ledger.flush();
    expect(await harness.deps.cookieEconomy.balance(ana.id)).toBe(900);
  });

  it('GIVEN a member who is not a side of the trade THEN pressing its Confirm is refused privately and changes nothing', async () => {
    const ana = freshMember('ana');
    const ben = freshMember('ben');
    const cat = freshMember('cat');
    fake.addMember(cat);
    const [board] = await fake.waitFor(fake.command(ana, 'trade', ['with'], { user: ben.id }, [ben]));
    const [refused] = await fake.waitFor(fake.click(cat, board as never, buttonId(board, 'Confirm')));
    expect(refused?.ephemeral).toBe(true);
    expect(refused?.content).toBe(
      `❌ This trade is between <@${ana.id}> and <@${ben.id}>: only they can change it.`,
    );
  });
});
