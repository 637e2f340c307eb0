import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot, withPlacePoints } from '../support/discordHarness.js';
import { FakeDiscord, type FakeUser } from '../support/fakeDiscord.js';

const t = useTestDatabase('discord_protected_areas');
const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };
const AUDIT = '900000000000000079';
const ARTISTS = '900000000000000555';

describe('protected areas through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    // Before the bot starts: discord.js knows the server's roles from its GUILD_CREATE.
    fake.addRole({ id: ARTISTS, name: 'artists' });
    harness = await startFakeBot(fake, t);
    await fake.waitFor(
      fake.command(admin, 'settings', ['set'], { key: 'admin.audit_channel', value: `<#${AUDIT}>` }),
    );
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  const funded = (member: FakeUser) => withPlacePoints(harness, member);

  it('GIVEN an admin protects a logo WHEN a member paints its corner THEN they are refused privately with its name, charged nothing, and the audit says who protected it', async () => {
    const [made] = await fake.waitFor(
      fake.command(admin, 'admin', ['place', 'protect'], { name: 'Logo', area: '9,9,5,5' }),
    );
    expect(made?.ephemeral).toBe(true);
    expect(made?.content).toBe('🛡️ Protected: **Logo** (5, 5)–(9, 9). Who may paint there: moderators only.');
    await harness.deps.scheduler.runDue();
    expect((fake.channelPosts.get(AUDIT) ?? []).map((m) => m.content)).toContain(
      `🛡️ <@${ADMIN_ID}> protected **Logo** (5, 5)–(9, 9) (moderators only).`,
    );
    const member = await funded(freshMember('gus'));
    const [refused] = await fake.waitFor(
      fake.command(member, 'place', ['pixel'], { x: 9, y: 5, color: 'red' }),
    );
    expect(refused?.ephemeral).toBe(true);
    expect(refused?.content).toBe(
      '❌ (9, 5) is in the protected area **Logo**: only moderators may paint there. Nothing was charged.',
    );
    expect(await harness.deps.services.place.wallet(member.id)).toMatchObject({
      balance: 1_000_000,
      placements: 0,
    });
    // A moderator paints there.
    await funded(admin);
    const [painted] = await fake.waitFor(
      fake.command(admin, 'place', ['pixel'], { x: 9, y: 5, color: 'red' }),
    );
    expect(painted?.content).toContain('(9, 5)');
    expect(painted?.content).not.toContain('❌');
  });

  it('GIVEN an area for a role WHEN a German member without it paints THEN the refusal is German and names the role; a member with it paints', async () => {
    const [made] = await fake.waitFor(
      fake.command(admin, 'admin', ['place', 'protect'], {
        name: 'Gedenkstein',
        area: '20,20,22,22',
        role: ARTISTS,
      }),
    );
    expect(made?.content).toBe(
      `🛡️ Protected: **Gedenkstein** (20, 20)–(22, 22). Who may paint there: moderators and <@&${ARTISTS}>.`,
    );
    const otto = await funded(freshMember('otto', 'de'));
    const [refused] = await fake.waitFor(
      fake.command(otto, 'place', ['pixel'], { x: 22, y: 20, color: 'rot' }),
    );
    expect(refused?.ephemeral).toBe(true);
    expect(refused?.content).toBe(
      `❌ (22, 20) liegt im geschützten Bereich **Gedenkstein**: Dort dürfen nur Moderatoren und Mitglieder mit <@&${ARTISTS}> malen. Dir wurde nichts berechnet.`,
    );
    const artist = await funded({ ...freshMember('ida'), roles: [ARTISTS] });
    const [painted] = await fake.waitFor(
      fake.command(artist, 'place', ['pixel'], { x: 22, y: 20, color: 'red' }),
    );
    expect(painted?.content).not.toContain('❌');
    expect(await harness.deps.services.place.wallet(artist.id)).toMatchObject({ placements: 1 });
  });

  it('GIVEN two areas WHEN the list is asked and one is removed THEN the list names both and then one', async () => {
    const [list] = await fake.waitFor(fake.command(admin, 'admin', ['place', 'protected']));
    expect(list?.content).toContain('**Logo** (5, 5)–(9, 9): moderators only');
    const [removed] = await fake.waitFor(
      fake.command(admin, 'admin', ['place', 'unprotect'], { name: 'logo' }),
    );
    expect(removed?.content).toBe(
      '🛡️ No longer protected: **Logo** (5, 5)–(9, 9). Everyone may paint there again.',
    );
    const [unknown] = await fake.waitFor(
      fake.command(admin, 'admin', ['place', 'unprotect'], { name: 'Logo' }),
    );
    expect(unknown?.content).toContain('There is no protected area called „Logo“');
  });
});
