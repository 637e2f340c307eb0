import { ApplicationCommandOptionType } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_GUILD_ID, consoleGuildId } from '../../src/console/consoleSession.js';
import { convertOptions } from '../../src/console/parseConsoleLine.js';
import { RoleRefused } from '../../src/roles/memberRoles.js';
import { inServer } from '../../src/runtimeConfig/serverContext.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('console_roles');

describe('roles in the local console', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t);
  });

  it('GIVEN role:@Painters in a line THEN the option carries the role id and replies show @Painters', async () => {
    expect(
      await c.session.run('as admin /admin place protect name:Logo area:20,20,24,24 role:@Painters'),
    ).toBe('ok');
    const text = c.take();
    expect(text).toContain('Who may paint there: moderators and @Painters.');
    expect(text).not.toContain('<@&');
    expect(c.identities.role('painters').id).toBe(c.identities.role('@Painters').id);
    expect(c.identities.role('Painters').id).toMatch(/^\d{18}$/);
    expect(c.identities.role('Painters').id).not.toBe(c.identities.get('Painters').id);
  });

  it('GIVEN a role option THEN its id is the value and its name travels beside it, as Discord resolves it', () => {
    const { options, roleNames } = convertOptions(
      '/shop add-role',
      [{ type: ApplicationCommandOptionType.Role, name: 'role', description: 'The role', required: true }],
      new Map([['role', '@VIP']]),
      {
        user: (name) => c.identities.get(name),
        channel: (name) => c.identities.channel(name),
        role: (name) => c.identities.role(name),
      },
    );
    const vip = c.identities.role('VIP').id;
    expect(options).toEqual({ role: vip });
    expect(roleNames).toEqual({ [vip]: 'VIP' });
  });

  it('GIVEN a role named in an earlier line WHEN a text option is @ that role THEN it becomes the role’s mention, as Discord’s client makes it; the role setting takes it, and an unknown @name stays as typed', async () => {
    expect(await c.session.run('!role bob @Builders')).toBe('ok');
    c.take();
    expect(await c.session.run('as admin /settings set key:place_template_role value:@Builders')).toBe('ok');
    expect(c.take()).toContain('@Builders');
    const stored = await inServer(CONSOLE_GUILD_ID, () => c.deps.runtimeConfig.get('place_template_role'));
    expect(stored).toBe(c.identities.role('Builders').id);

    const { options } = convertOptions(
      '/settings set',
      [
        {
          type: ApplicationCommandOptionType.String,
          name: 'value',
          description: 'The value',
          required: true,
        },
      ],
      new Map([['value', '@Nobody']]),
      {
        user: (name) => c.identities.get(name),
        channel: (name) => c.identities.channel(name),
        role: (name) => c.identities.role(name),
        knownRole: (name) => c.identities.knownRole(name),
      },
    );
    expect(options).toEqual({ value: '@Nobody' });
  });

  it('GIVEN a role on the shelf WHEN a member buys it THEN they hold it on their next line; refused, their Cookies come back', async () => {
    await c.session.run('as admin /admin cookies grant user:you amount:5000');
    await c.session.run('as admin /admin cookies grant user:bob amount:5000');
    expect(await c.session.run('as admin /shop add-role role:@VIP price:1000')).toBe('ok');
    c.take();
    expect(await c.session.run('/shop buy item:VIP')).toBe('ok');
    expect(c.take()).toContain('[role] the bot gave @you the role @VIP');
    await c.session.run('!roles');
    expect(c.take()).toBe('(@you holds in this server: @VIP)\n');
    expect(await c.deps.ledger.balanceOf('cookies', c.identities.get('you').id)).toBe(4000);

    await c.session.run('!roles deny');
    c.take();
    await c.session.run('as bob /shop buy item:VIP');
    expect(c.take()).toContain(
      "[role] Discord refused the bot's change of @VIP for @bob: missing_permission",
    );
    expect(c.roles.of(CONSOLE_GUILD_ID, c.identities.get('bob').id)).toEqual([]);
    expect(await c.deps.ledger.balanceOf('cookies', c.identities.get('bob').id)).toBe(5000);
  });

  it('GIVEN !role WHEN the member paints next THEN their line carries the role, and !unrole takes it again', async () => {
    await c.session.run('as admin /admin place protect name:Logo area:20,20,24,24 role:VIP');
    await c.session.run('as admin /admin place grant target:bob points:500');
    c.take();
    expect(await c.session.run('as bob /place pixel x:22 y:22 color:white')).toBe('refused');
    expect(c.take()).toContain('only moderators and members with @VIP may paint there');

    expect(await c.session.run('!role @bob @VIP')).toBe('ok');
    expect(c.take()).toBe('(a moderator gave @bob the role @VIP)\n');
    expect(c.roles.of(CONSOLE_GUILD_ID, c.identities.get('bob').id)).toEqual([c.identities.role('VIP').id]);
    expect(await c.session.run('as bob /place pixel x:22 y:22 color:white')).toBe('ok');
    expect(c.take()).toContain('(22, 22)');
    expect(await c.session.run('!roles bob')).toBe('ok');
    expect(c.take()).toContain('(@bob holds in this server: @VIP)\n');

    expect(await c.session.run('!role bob VIP')).toBe('ok');
    expect(c.take()).toBe('(@bob already holds @VIP)\n');
    expect(await c.session.run('!unrole bob @vip')).toBe('ok');
    expect(c.take()).toBe('(a moderator took the role @VIP from @bob)\n');
    expect(await c.session.run('as bob /place pixel x:23 y:22 color:white')).toBe('refused');
    expect(c.take()).toContain('only moderators and members with @VIP may paint there');
    expect(await c.session.run('!unrole bob @vip')).toBe('ok');
    expect(c.take()).toContain('(@bob does not hold @VIP)\n');
  });

  it('GIVEN a role given in one server THEN another server knows nothing of it', async () => {
    await c.session.run('!role you @VIP');
    await c.session.run('!guild second');
    c.take();
    expect(await c.session.run('!roles')).toBe('ok');
    expect(c.take()).toBe('(@you holds no roles in this server)\n');
    await c.session.run('!guild main');
    c.take();
    await c.session.run('!roles');
    expect(c.take()).toBe('(@you holds in this server: @VIP)\n');
    await c.session.run('as bob !roles');
    expect(c.take()).toBe('(@bob holds no roles in this server)\n');
  });

  it('GIVEN the bot gives a role THEN it is held once however often it is given, and shown as it happens', async () => {
    const bob = c.identities.get('bob').id;
    const vip = c.identities.role('VIP').id;
    await c.roles.add(CONSOLE_GUILD_ID, bob, vip, 'shop purchase');
    await c.roles.add(CONSOLE_GUILD_ID, bob, vip, 'shop purchase');
    expect(c.roles.of(CONSOLE_GUILD_ID, bob)).toEqual([vip]);
    expect(c.take()).toBe('[role] the bot gave @bob the role @VIP: shop purchase\n');
    await c.roles.remove(CONSOLE_GUILD_ID, bob, vip, 'refund');
    await c.roles.remove(CONSOLE_GUILD_ID, bob, vip, 'refund');
    expect(c.roles.of(CONSOLE_GUILD_ID, bob)).toEqual([]);
    expect(c.take()).toBe('[role] the bot took the role @VIP from @bob: refund\n');
  });

  it('GIVEN !roles deny THEN the bot’s changes in this server are refused as Discord would, until !roles allow', async () => {
    const bob = c.identities.get('bob').id;
    const vip = c.identities.role('VIP').id;
    expect(await c.session.run('!roles deny')).toBe('ok');
    expect(c.take()).toContain("Discord refuses the bot's role changes in this server: missing_permission");
    const refusal = await c.roles.add(CONSOLE_GUILD_ID, bob, vip, 'shop purchase').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(RoleRefused);
    expect((refusal as RoleRefused).reason).toBe('missing_permission');
    expect(c.take()).toBe("[role] Discord refused the bot's change of @VIP for @bob: missing_permission\n");
    expect(c.roles.of(CONSOLE_GUILD_ID, bob)).toEqual([]);
    // A moderator's own hand is not the bot's.
    await c.session.run('!role bob @VIP');
    await expect(c.roles.remove(CONSOLE_GUILD_ID, bob, vip, 'refund')).rejects.toThrow(RoleRefused);

    await c.session.run('!roles deny role_too_high');
    await expect(c.roles.add(CONSOLE_GUILD_ID, bob, vip, 'x')).rejects.toMatchObject({
      reason: 'role_too_high',
    });
    // Another server's Discord lets the bot through.
    await expect(c.roles.add(consoleGuildId('second'), bob, vip, 'x')).resolves.toBeUndefined();
    expect(await c.session.run('!roles allow')).toBe('ok');
    c.take();
    await c.roles.remove(CONSOLE_GUILD_ID, bob, vip, 'refund');
    expect(c.roles.of(CONSOLE_GUILD_ID, bob)).toEqual([]);
  });

  it.each([
    ['en', '!role bob', '!role needs a member and a role, e.g. !role @bob @VIP'],
    ['en', '!unrole @bob', '!unrole needs a member and a role'],
    ['en', 'as bob !roles deny', "!roles is a moderator's act in the server"],
    ['en', '!roles bob alice', '!roles takes a member (!roles @bob)'],
    ['en', 'as bob !role bob @VIP', '!role is a moderator\'s act in the server, not a member\'s; drop "as"'],
    [
      'en',
      '!roles deny never',
      '!roles takes a member (!roles @bob), "deny" with one of missing_permission|',
    ],
    ['en', '/admin place protect name:Logo area:1,1,2,2 role:@', 'role must be a role name, e.g. role:@VIP'],
    ['de', '!role bob', 'Fehler: !role braucht ein Mitglied und eine Rolle, z. B. !role @bob @VIP'],
  ] as const)('refuses (%s) %j with what to write, and changes nothing', async (locale, line, message) => {
    await c.session.run(`!locale ${locale}`);
    c.take();
    expect(await c.session.run(line)).toBe('failed');
    expect(c.take()).toContain(message);
    expect(c.roles.of(CONSOLE_GUILD_ID, c.identities.get('bob').id)).toEqual([]);
  });

  it('GIVEN a role name with spaces in quotes THEN it is one role, shown as typed first', async () => {
    expect(await c.session.run('!role bob "@Cookie Monster"')).toBe('ok');
    expect(c.take()).toBe('(a moderator gave @bob the role @Cookie Monster)\n');
    await c.session.run('!roles @bob');
    expect(c.take()).toBe('(@bob holds in this server: @Cookie Monster)\n');
    expect(c.identities.role('cookie monster').id).toBe(c.identities.role('@Cookie Monster').id);
  });

  it('GIVEN the console in German THEN the role lines answer in German', async () => {
    await c.session.run('!locale de');
    c.take();
    await c.session.run('!role jürgen @Stammgast');
    expect(c.take()).toBe('(ein Moderator hat @jürgen die Rolle @Stammgast gegeben)\n');
    await c.session.run('!roles jürgen');
    expect(c.take()).toBe('(Rollen von @jürgen auf diesem Server: @Stammgast)\n');
  });
});
