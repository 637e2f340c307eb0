import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { FakeDiscord, type FakeUser } from '../support/fakeDiscord.js';
import { seedBalance } from '../support/ledgerHarness.js';

const t = useTestDatabase('discord_clawback');
const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };
const adminDe: FakeUser = { id: ADMIN_ID, username: 'ada', locale: 'de' };
const AUDIT = '900000000000000078';

describe('a clawback through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t);
    await fake.waitFor(
      fake.command(admin, 'settings', ['set'], { key: 'admin.audit_channel', value: `<#${AUDIT}>` }),
    );
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  async function audited(): Promise<string[]> {
    await harness.deps.scheduler.runDue();
    return (fake.channelPosts.get(AUDIT) ?? []).map((m) => m.content);
  }

  it('GIVEN 40 Cookies WHEN a moderator claws back 100 THEN the reply says 40 of 100 were taken, privately, and the audit channel says so', async () => {
    const member = freshMember('mia');
    await seedBalance(harness.deps.ledger, member.id, 40);
    const [reply] = await fake.waitFor(
      fake.command(admin, 'admin', ['cookies', 'clawback'], { user: member.id, amount: 100, reason: 'bug' }, [
        member,
      ]),
    );
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).toBe(
      `↩️ Took back **40 🍪** of the 100 🍪 asked from <@${member.id}>: their free balance was 40 🍪 (Cookies in play, such as stakes, are not taken). They now have 0 🍪.`,
    );
    expect(await harness.deps.ledger.balanceOf('cookies', member.id)).toBe(0);
    expect(await audited()).toContain(
      `↩️ <@${ADMIN_ID}> took back 40 🍪 of 100 🍪 asked from <@${member.id}>: bug`,
    );
  });

  it('GIVEN a German moderator and server WHEN they claw back 1.500 Cookies of 2.000 THEN the reply and the audit line are German', async () => {
    const member = freshMember('otto');
    await seedBalance(harness.deps.ledger, member.id, 2_000);
    fake.guildLocale = 'de';
    try {
      const [reply] = await fake.waitFor(
        fake.command(adminDe, 'admin', ['cookies', 'clawback'], { user: member.id, amount: 1_500 }, [member]),
      );
      expect(reply?.ephemeral).toBe(true);
      expect(reply?.content).toBe(
        `↩️ <@${member.id}> wurden **1.500 🍪** abgezogen; Kontostand jetzt 500 🍪.`,
      );
      expect(await audited()).toContain(
        `↩️ <@${ADMIN_ID}> hat <@${member.id}> 1.500 🍪 abgezogen (angegeben: 1.500 🍪).`,
      );
    } finally {
      fake.guildLocale = 'en-US';
    }
  });

  it('GIVEN Place points WHEN a German moderator claws back 0,001 THEN one milli-point goes, written the German way', async () => {
    const member = freshMember('lena');
    await harness.deps.services.place.grant({
      opId: 'pts',
      moderatorId: ADMIN_ID,
      to: member.id,
      amount: 2_500,
      reason: '',
    });
    const [reply] = await fake.waitFor(
      fake.command(adminDe, 'admin', ['place', 'clawback'], { user: member.id, points: '0,001' }, [member]),
    );
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).toMatch(
      new RegExp(
        `^↩️ <@${member.id}> wurden \\*\\*0,001 .+\\*\\* abgezogen; Place-Guthaben jetzt 2,499 .+\\.$`,
      ),
    );
    expect(await harness.deps.ledger.balanceOf('place', member.id)).toBe(2_499);
  });

  it('GIVEN an audit channel WHEN a moderator switches painting off and on THEN both are posted there', async () => {
    await fake.waitFor(fake.command(admin, 'admin', ['place', 'disable']));
    await fake.waitFor(fake.command(admin, 'admin', ['place', 'enable']));
    const posted = await audited();
    expect(posted).toContain(`🎨 <@${ADMIN_ID}> switched painting off; the canvas stays visible.`);
    expect(posted).toContain(`🎨 <@${ADMIN_ID}> switched painting on.`);
  });
});
