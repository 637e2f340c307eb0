import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodEnd, periodOf } from '../../utils/shop/roleIncome.js';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { FakeDiscord, type FakeUser } from '../support/fakeDiscord.js';

const t = useTestDatabase('discord_role_income');
const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };
const BOOSTER = '900000000000000701';

describe('role income through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    fake.addRole({ id: BOOSTER, name: 'Booster' });
    harness = await startFakeBot(fake, t);
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  const balance = (who: FakeUser) => harness.deps.cookieEconomy.balance(who.id);

  async function toPeriodEnd(everyH: number) {
    const end = periodEnd(periodOf(harness.clock.now(), everyH), everyH);
    harness.clock.advanceTo(new Date(end.getTime() + 1_000));
    await harness.deps.scheduler.runDue();
  }

  it('GIVEN the roles Discord sends with each interaction THEN the holders are paid at the period end, and a member whose role was taken is not paid once Discord shows it gone', async () => {
    const bob: FakeUser = { ...freshMember('bob'), roles: [BOOSTER] };
    // The fake sends each interaction with the roles of the member object it is given.
    const carol = freshMember('carol', 'de');
    for (const m of [bob, carol]) fake.addMember(m);

    const [set] = await fake.waitFor(
      fake.command(admin, 'shop', ['income', 'set'], { role: BOOSTER, every: 12, amount: 40 }),
    );
    expect(set?.ephemeral).toBe(true);
    expect(set?.content).toMatch(/^✅ <@&\d+> now pays \*\*40 🍪\*\* every 12 h\. Next payment <t:\d+:R>\./);
    for (const m of [bob, carol]) await fake.waitFor(fake.command(m, 'cookies', ['balance']));
    await toPeriodEnd(12);
    expect([await balance(bob), await balance(carol)]).toEqual([40, 0]);

    // A moderator moves the role in Discord's own client: the bot hears of it with the next interaction.
    const [bobNow, carolNow] = [
      { ...bob, roles: [] },
      { ...carol, roles: [BOOSTER] },
    ];
    for (const m of [bobNow, carolNow]) await fake.waitFor(fake.command(m, 'cookies', ['balance']));
    await toPeriodEnd(12);
    expect([await balance(bob), await balance(carol)]).toEqual([40, 40]);

    const [list] = await fake.waitFor(fake.command(admin, 'shop', ['income', 'list']));
    expect(list?.content).toContain(`<@&${BOOSTER}>: **40 🍪** every 12 h`);
    const [refused] = await fake.waitFor(
      fake.command(admin, 'shop', ['income', 'set'], { role: BOOSTER, every: 12, amount: 40, share_pct: 5 }),
    );
    expect(refused?.ephemeral).toBe(true);
    expect(refused?.content).toContain('either `amount`');
    const [removed] = await fake.waitFor(
      fake.command(admin, 'shop', ['income', 'remove'], { role: BOOSTER }),
    );
    expect(removed?.content).toBe(`🗑️ <@&${BOOSTER}> pays no income any more.`);
    await toPeriodEnd(12);
    expect([await balance(bob), await balance(carol)]).toEqual([40, 40]);
  });
});
