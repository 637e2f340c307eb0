import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { FakeDiscord, type FakeUser, type VisibleMessage } from '../support/fakeDiscord.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { waitFor } from '../support/waitFor.js';

const t = useTestDatabase('discord_shop');
const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };
const VIP = '900000000000000601';
const STAFF = '900000000000000602';

describe('the shop through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    fake.addRole({ id: VIP, name: 'VIP' });
    // Above the bot's own role: Discord lets no bot give it.
    fake.addRole({ id: STAFF, name: 'Staff', position: 200 });
    harness = await startFakeBot(fake, t, { rolesTimeoutMs: 500 });
    for (const [name, role, price] of [
      ['VIP', VIP, 300],
      ['Staff', STAFF, 100],
    ] as const)
      await fake.waitFor(fake.command(admin, 'shop', ['add-role'], { role, price, name, hours: 24 }));
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  async function member(name: string, locale?: string): Promise<FakeUser> {
    const made = freshMember(name, locale);
    fake.addMember(made);
    await harness.deps.services.cookies.grant({
      opId: `fund:${made.id}`,
      adminId: ADMIN_ID,
      to: made.id,
      amount: 1_000,
      reason: '',
    });
    return made;
  }

  const balance = (who: FakeUser) => harness.deps.cookieEconomy.balance(who.id);
  const buyButtonOf = (message: VisibleMessage | undefined) =>
    message?.components.flatMap((row) => row.components).find((c) => c.custom_id.startsWith('shop.buy')) ??
    null;

  it('GIVEN the shelf WHEN a member picks VIP and presses Buy twice THEN Discord gives the role once and the price is taken once', async () => {
    const bob = await member('bob');
    const [shelf] = await fake.waitFor(fake.command(bob, 'shop', ['browse']));
    expect(shelf?.ephemeral).toBe(true);
    expect(shelf?.embeds[0]?.fields?.map((f) => f.name)).toEqual(['🎭 Staff — 100 🍪', '🎭 VIP — 300 🍪']);
    const menu = shelf?.components[0]?.components[0];
    expect(menu?.options?.map((o) => o.label)).toEqual(['Staff — 100 🍪', 'VIP — 300 🍪']);
    const vipValue = menu?.options?.find((o) => o.label.startsWith('VIP'))?.value ?? '';
    const picked = await fake.waitFor(
      fake.choose(bob, shelf as VisibleMessage, menu?.custom_id ?? '', [vipValue]),
    );
    const offer = picked.at(-1);
    const buy = buyButtonOf(offer);
    expect(buy?.label).toBe('Buy for 300 🍪');
    const first = await fake.waitFor(fake.click(bob, offer as VisibleMessage, buy?.custom_id ?? ''));
    const second = await fake.waitFor(fake.click(bob, offer as VisibleMessage, buy?.custom_id ?? ''));
    expect(first.at(-1)?.content).toMatch(
      /^✅ You bought \*\*VIP\*\* for \*\*300 🍪\*\*: you have <@&\d+> until <t:\d+:f>\. Balance: 700 🍪\.$/,
    );
    expect(second.at(-1)?.content).toContain('Balance: 700 🍪');
    expect(fake.memberRoles(bob.id)).toContain(VIP);
    expect(await balance(bob)).toBe(700);
    const [inventory] = await fake.waitFor(fake.command(bob, 'inventory', ['show']));
    expect(inventory?.embeds[0]?.description).toContain(`🎭 <@&${VIP}>`);
  });

  it("GIVEN a role above the bot's own WHEN a German member buys it THEN Discord refuses, the Cookies come back, and the member hears why in German", async () => {
    const otto = await member('otto', 'de');
    fake.expectRefusals();
    const [refused] = await fake.waitFor(fake.command(otto, 'shop', ['buy'], { item: 'Staff' }));
    expect(refused?.ephemeral).toBe(true);
    expect(refused?.content).toBe(
      `❌ Discord hat dem Bot nicht erlaubt, <@&${STAFF}> zu vergeben: Die Rolle steht über seiner eigenen. Du hast deine Kekse zurück; sag der Moderation Bescheid.`,
    );
    expect(fake.memberRoles(otto.id)).not.toContain(STAFF);
    expect(await balance(otto)).toBe(1_000);
  });

  it("GIVEN Discord failing the role request WHEN a member buys THEN the Cookies are held, and the purchase's timer gives the role once Discord answers", async () => {
    const cleo = await member('cleo');
    fake.failRoleRequests({ status: 500 });
    const [pending] = await fake.waitFor(
      fake.command(cleo, 'shop', ['buy'], { item: 'vip' }),
      undefined,
      30_000,
    );
    expect(pending?.content).toBe(
      `⏳ Discord has not answered for <@&${VIP}> yet. Your 300 🍪 are held: within a few minutes you get the role, or they come back.`,
    );
    expect(await balance(cleo)).toBe(700);
    expect(fake.memberRoles(cleo.id)).not.toContain(VIP);
    fake.restoreRoleRequests();
    harness.clock.advance(2 * 60_000);
    await harness.deps.scheduler.runDue();
    await waitFor(() => fake.memberRoles(cleo.id).includes(VIP), { what: 'the role given by the timer' });
    await harness.deps.ledger.flush();
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(
      await ASSEMBLY.checkInvariants(t.db, harness.deps.config, harness.deps.ledger, harness.clock.now()),
    ).toEqual([]);
  });

  it('GIVEN a role bought for 24 h WHEN its time is over THEN the bot takes it back through Discord', async () => {
    const dora = await member('dora');
    await fake.waitFor(fake.command(dora, 'shop', ['buy'], { item: 'VIP' }));
    expect(fake.memberRoles(dora.id)).toContain(VIP);
    harness.clock.advance(24 * 3_600_000 + 1_000);
    await harness.deps.scheduler.runDue();
    await waitFor(() => !fake.memberRoles(dora.id).includes(VIP), { what: 'the role taken back' });
  });
});
