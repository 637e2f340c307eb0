import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { FakeDiscord, type FakeUser } from '../support/fakeDiscord.js';

const t = useTestDatabase('discord_sanctions');
const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };
const MODERATOR_ID = '800000000000000077';
const moderator: FakeUser = { id: MODERATOR_ID, username: 'mo' };
const AUDIT = '900000000000000079';
const HOUR_S = 3_600;

describe('bans through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t, { env: { MODERATOR_USER_IDS: MODERATOR_ID } });
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

  const endOf = (hours: number) => Math.floor(harness.clock.now().getTime() / 1000) + hours * HOUR_S;

  it('GIVEN a moderator bans a member from painting for 1h THEN the reply and the audit say until when, and the member is refused in their language', async () => {
    const member = freshMember('pia');
    const end = endOf(1);
    const [reply] = await fake.waitFor(
      fake.command(
        moderator,
        'admin',
        ['sanction', 'ban'],
        { member: member.id, scope: 'painting', duration: '1h', reason: 'griefing' },
        [member],
      ),
    );
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).toBe(
      `🔨 <@${member.id}> is banned from painting until <t:${end}:f> (<t:${end}:R>). Reason: griefing`,
    );
    expect(await audited()).toContain(
      `🔨 <@${MODERATOR_ID}> banned <@${member.id}> from painting until <t:${end}:f> (<t:${end}:R>). Reason: griefing`,
    );

    const [refused] = await fake.waitFor(
      fake.command(member, 'place', ['pixel'], { x: 1, y: 1, color: 'red' }),
    );
    expect(refused?.ephemeral).toBe(true);
    expect(refused?.content).toBe(
      `❌ You are banned from painting until <t:${end}:f> (<t:${end}:R>): griefing`,
    );
    const german = { ...member, locale: 'de' };
    const [verweigert] = await fake.waitFor(
      fake.command(german, 'place', ['pixel'], { x: 1, y: 1, color: 'red' }),
    );
    expect(verweigert?.content).toBe(
      `❌ Du bist bis <t:${end}:f> (<t:${end}:R>) vom Malen gesperrt: griefing`,
    );

    // Looking is not painting, and help still answers.
    const [help] = await fake.waitFor(fake.command(member, 'help', [], {}));
    expect(help?.content ?? '').not.toContain('banned');

    const [lifted] = await fake.waitFor(
      fake.command(moderator, 'admin', ['sanction', 'lift'], { member: member.id, scope: 'painting' }, [
        member,
      ]),
    );
    expect(lifted?.content).toBe(`✅ <@${member.id}> is no longer banned from painting.`);
    expect(await audited()).toContain(`✅ <@${MODERATOR_ID}> lifted <@${member.id}>'s ban from painting.`);
    const [after] = await fake.waitFor(
      fake.command(member, 'place', ['pixel'], { x: 1, y: 1, color: 'red' }),
    );
    expect(after?.content ?? '').not.toContain('banned');
  });

  it('GIVEN an economy ban THEN a give and a game are refused, the balance is not', async () => {
    const member = freshMember('eco');
    await fake.waitFor(
      fake.command(
        admin,
        'admin',
        ['sanction', 'ban'],
        { member: member.id, scope: 'economy', reason: 'alts' },
        [member],
      ),
    );
    const other = freshMember('oli');
    const [give] = await fake.waitFor(
      fake.command(member, 'cookies', ['give'], { user: other.id, amount: 5 }, [other]),
    );
    expect(give?.content).toBe('❌ You are banned from the whole economy for good: alts');
    const [game] = await fake.waitFor(
      fake.command(member, 'games', ['coinflip'], { bet: 10, side: 'heads' }),
    );
    expect(game?.content).toBe('❌ You are banned from the whole economy for good: alts');
    const [balance] = await fake.waitFor(fake.command(member, 'cookies', ['balance'], {}));
    expect(balance?.content ?? JSON.stringify(balance?.embeds)).not.toContain('banned');
  });

  it('GIVEN a moderator who is not an admin WHEN they ban for good or for 8 days THEN it is refused and nothing is banned', async () => {
    const member = freshMember('max');
    for (const options of [{}, { duration: '8d' }] as Record<string, string>[]) {
      const [reply] = await fake.waitFor(
        fake.command(
          moderator,
          'admin',
          ['sanction', 'ban'],
          { member: member.id, scope: 'games', reason: 'x', ...options },
          [member],
        ),
      );
      expect(reply?.content).toBe(
        '❌ Moderators can ban for up to 7 days. A longer or permanent ban needs an admin.',
      );
    }
    const [list] = await fake.waitFor(
      fake.command(moderator, 'admin', ['sanction', 'list'], { member: member.id }),
    );
    expect(list?.content).toBe('No bans in force.');
  });
});
