import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inServer } from '../../src/runtimeConfig/serverContext.js';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { FakeDiscord, type FakeUser } from '../support/fakeDiscord.js';
import { GUILD_ID } from '../support/fakeGuild.js';

const t = useTestDatabase('discord_server_settings');
const MANAGERS = '900000000000000611';
const admin: FakeUser = { id: ADMIN_ID, username: 'ada' };

/**
 * `/settings` through the real discord.js client: whoever manages the server (Discord's Manage
 * Server, sent with the interaction) sets its own channels and switches; the defaults every
 * server shares, and the economy's constants, stay with the bot's admins.
 */
describe('a server’s own settings through Discord', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;
  let manager: FakeUser;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t);
    fake.addRole({ id: MANAGERS, name: 'Managers', permissions: PermissionFlagsBits.ManageGuild });
    manager = { ...freshMember('mona'), roles: [MANAGERS] };
  });
  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  it('GIVEN a member with Manage Server THEN they switch stealing off for this server only, and are refused the default and the constants', async () => {
    const [here] = await fake.waitFor(
      fake.command(manager, 'settings', ['set'], { key: 'cookies.steal_enabled', value: 'off' }),
    );
    expect(here?.ephemeral).toBe(true);
    expect(here?.content).toContain('🏠 In this server only; the other servers keep theirs.');
    const config = harness.deps.runtimeConfig;
    expect(await config.get('cookies.steal_enabled', GUILD_ID)).toBe(false);
    expect(await config.get('cookies.steal_enabled')).toBe(true);
    expect(await inServer('900000000000000999', () => config.get('cookies.steal_enabled'))).toBe(true);

    const [everywhere] = await fake.waitFor(
      fake.command(manager, 'settings', ['set'], {
        key: 'cookies.steal_enabled',
        value: 'off',
        everywhere: true,
      }),
    );
    expect(everywhere?.content).toBe(
      "❌ The default of **cookies.steal_enabled** for every server is the bot's admins' to change; this server's own value is yours (leave out everywhere).",
    );
    const [constant] = await fake.waitFor(
      fake.command(manager, 'settings', ['set'], { key: 'place_pixel_cost', value: '1' }),
    );
    expect(constant?.content).toBe(
      "❌ **place_pixel_cost** has one value for every server: only the bot's admins change it.",
    );
    expect(await config.get('place_pixel_cost')).toBe(100);

    const member = freshMember('pia');
    const [refused] = await fake.waitFor(
      fake.command(member, 'settings', ['set'], { key: 'cookies.steal_enabled', value: 'on' }),
    );
    expect(refused?.content).toBe(
      '❌ You are not allowed to do that: it needs server manager rights on this bot.',
    );
    expect(await config.get('cookies.steal_enabled', GUILD_ID)).toBe(false);
  });

  it('GIVEN an admin THEN /settings show marks the server’s own values and the constants, and reset gives the default back', async () => {
    const [shown] = await fake.waitFor(fake.command(admin, 'settings', ['show'], { feature: 'cookies' }));
    const text = JSON.stringify(shown?.embeds ?? []);
    expect(text).toMatch(/steal_enabled` \*\*off\*\* \(default on\) 🏠/);
    expect(text).toMatch(/give_max` \*\*1,000,000\*\* \(default 1,000,000\) 🌐/);
    const [reset] = await fake.waitFor(
      fake.command(manager, 'settings', ['reset'], { key: 'cookies.steal_enabled' }),
    );
    expect(reset?.content).toBe(
      '↩️ **cookies.steal_enabled** in this server: off → **on** (the default again).',
    );
    expect(await harness.deps.runtimeConfig.get('cookies.steal_enabled', GUILD_ID)).toBe(true);
  });
});
