import { Client, type Guild, REST } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { discordRoles } from '../../src/discord/discordRoles.js';
import { isRoleRefused, type MemberRoles, type RoleRefusal } from '../../src/roles/memberRoles.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { BOT_ROLE_ID, BOT_ROLE_POSITION, FakeDiscord, GUILD_ID } from '../support/fakeDiscord.js';
import { waitFor } from '../support/waitFor.js';

/**
 * Members' roles through Discord's REST (src/discord/discordRoles.ts) against the fake Discord:
 * the bot's own client, which sees the server through the gateway and foresees Discord's
 * refusals, and a client without a gateway (a child process), which learns them from Discord.
 */

const t = useTestDatabase('discord_member_roles');

const TIMEOUT_MS = 400;
let roleCounter = 0;

/** A role no other test uses, below the bot's unless told otherwise. */
function freshRole(fake: FakeDiscord, options: { position?: number; managed?: boolean } = {}): string {
  roleCounter += 1;
  const id = `92${String(roleCounter).padStart(16, '0')}`;
  fake.addRole({ id, name: `Role ${roleCounter}`, ...options });
  return id;
}

/** Why the call was refused for good; 'not refused' when it threw anything else, 'done' when it did not throw. */
async function outcome(call: Promise<void>): Promise<RoleRefusal | 'not refused' | 'done'> {
  try {
    await call;
    return 'done';
  } catch (error) {
    return isRoleRefused(error) ? error.reason : 'not refused';
  }
}

function roleCalls(fake: FakeDiscord, since: number) {
  return fake.calls.slice(since).filter((c) => /\/members\/\d+\/roles\/\d+$/.test(c.path));
}

describe("members' roles through the bot's client", () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;
  let roles: MemberRoles;
  let guild: Guild;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t, { rolesTimeoutMs: TIMEOUT_MS });
    roles = harness.deps.roles;
    guild = await waitFor(() => harness.bot.client.guilds.cache.get(GUILD_ID), { what: 'the server' });
  });

  afterEach(() => {
    fake.restoreRoleRequests();
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  /** Waits until the bot's cache shows the role as the fake announced it. */
  const known = (roleId: string) => waitFor(() => guild.roles.cache.get(roleId), { what: `role ${roleId}` });

  it("GIVEN a role below the bot's THEN giving it shows on the member with the reason in the audit log, and taking it removes it", async () => {
    const mia = freshMember('mia');
    fake.addMember(mia);
    const role = freshRole(fake);
    await known(role);
    const since = fake.calls.length;
    await roles.add(GUILD_ID, mia.id, role, 'Bought in the shop: Baker');
    expect(fake.memberRoles(mia.id)).toEqual([role]);
    expect(roleCalls(fake, since)).toMatchObject([
      { method: 'PUT', auditLogReason: 'Bought in the shop: Baker' },
    ]);
    const member = await guild.members.fetch({ user: mia.id, force: true });
    expect([...member.roles.cache.keys()]).toContain(role);
    await roles.remove(GUILD_ID, mia.id, role, 'Sold back');
    expect(fake.memberRoles(mia.id)).toEqual([]);
  });

  it('GIVEN a role given twice and one taken that is not held THEN Discord takes both and the member holds it once', async () => {
    const ben = freshMember('ben');
    fake.addMember(ben);
    const role = freshRole(fake);
    await known(role);
    await roles.add(GUILD_ID, ben.id, role, 'first');
    await roles.add(GUILD_ID, ben.id, role, 'again');
    expect(fake.memberRoles(ben.id)).toEqual([role]);
    await roles.remove(GUILD_ID, ben.id, role, 'take');
    expect(await outcome(roles.remove(GUILD_ID, ben.id, role, 'take again'))).toBe('done');
  });

  it('GIVEN the bot without Manage Roles THEN the change is refused as missing_permission without asking Discord', async () => {
    const ana = freshMember('ana');
    fake.addMember(ana);
    const role = freshRole(fake);
    await known(role);
    fake.removeBotPermission('ManageRoles');
    try {
      await waitFor(() => !guild.members.me?.permissions.has('ManageRoles'), { what: 'the lost permission' });
      const since = fake.calls.length;
      expect(await outcome(roles.add(GUILD_ID, ana.id, role, 'x'))).toBe('missing_permission');
      expect(roleCalls(fake, since)).toEqual([]);
    } finally {
      fake.restoreBotPermissions();
      await waitFor(() => guild.members.me?.permissions.has('ManageRoles'), { what: 'the permission back' });
    }
  });

  it("GIVEN a role above the bot's, or at its position and older THEN it is refused as role_too_high", async () => {
    const zoe = freshMember('zoe');
    fake.addMember(zoe);
    const above = freshRole(fake, { position: BOT_ROLE_POSITION + 5 });
    // Between equal positions the older role (the smaller id) is above.
    const older = '800000000000000001';
    fake.addRole({ id: older, name: 'Founders', position: BOT_ROLE_POSITION });
    const newer = freshRole(fake, { position: BOT_ROLE_POSITION });
    await known(above);
    await known(older);
    await known(newer);
    expect(await outcome(roles.add(GUILD_ID, zoe.id, above, 'x'))).toBe('role_too_high');
    expect(await outcome(roles.add(GUILD_ID, zoe.id, older, 'x'))).toBe('role_too_high');
    expect(fake.memberRoles(zoe.id)).toEqual([]);
    await roles.add(GUILD_ID, zoe.id, newer, 'x');
    expect(fake.memberRoles(zoe.id)).toEqual([newer]);
  });

  it("GIVEN a managed role (an integration's, the bot's own) THEN it is refused as managed_role", async () => {
    const eva = freshMember('eva');
    fake.addMember(eva);
    const booster = freshRole(fake, { managed: true });
    await known(booster);
    expect(await outcome(roles.add(GUILD_ID, eva.id, booster, 'x'))).toBe('managed_role');
    expect(await outcome(roles.add(GUILD_ID, eva.id, BOT_ROLE_ID, 'x'))).toBe('managed_role');
  });

  it('GIVEN a role deleted since THEN Discord answers 10011 and it is refused as unknown_role', async () => {
    const ida = freshMember('ida');
    fake.addMember(ida);
    const role = freshRole(fake);
    await known(role);
    fake.removeRole(role);
    await waitFor(() => !guild.roles.cache.has(role), { what: 'the deletion' });
    fake.expectRefusals();
    expect(await outcome(roles.add(GUILD_ID, ida.id, role, 'x'))).toBe('unknown_role');
  });

  it('GIVEN a member who left the server THEN Discord answers 10007 and it is refused as unknown_member', async () => {
    const leo = freshMember('leo');
    fake.addMember(leo);
    const role = freshRole(fake);
    await known(role);
    await roles.add(GUILD_ID, leo.id, role, 'x');
    fake.removeMember(leo.id);
    expect(fake.memberRoles(leo.id)).toEqual([]);
    fake.expectRefusals();
    expect(await outcome(roles.add(GUILD_ID, leo.id, role, 'x'))).toBe('unknown_member');
    expect(await outcome(roles.remove(GUILD_ID, leo.id, role, 'x'))).toBe('unknown_member');
  });

  it('GIVEN Discord answering 500 THEN the call throws something that is no refusal, after discord.js retried', async () => {
    const max = freshMember('max');
    fake.addMember(max);
    const role = freshRole(fake);
    await known(role);
    const since = fake.calls.length;
    fake.failRoleRequests({ status: 500 });
    expect(await outcome(roles.add(GUILD_ID, max.id, role, 'x'))).toBe('not refused');
    expect(roleCalls(fake, since)).toHaveLength(4);
    expect(fake.memberRoles(max.id)).toEqual([]);
  });

  it('GIVEN one 500 then an answer THEN the retry of discord.js lands the role', async () => {
    const kim = freshMember('kim');
    fake.addMember(kim);
    const role = freshRole(fake);
    await known(role);
    fake.failRoleRequests({ status: 502, times: 1 });
    await roles.add(GUILD_ID, kim.id, role, 'x');
    expect(fake.memberRoles(kim.id)).toEqual([role]);
  });

  it('GIVEN Discord slower than the deadline THEN the call throws something that is no refusal, landed or not', async () => {
    const sam = freshMember('sam');
    fake.addMember(sam);
    const lost = freshRole(fake);
    const landed = freshRole(fake);
    await known(landed);
    fake.holdRoleRequests();
    const started = Date.now();
    expect(await outcome(roles.add(GUILD_ID, sam.id, lost, 'x'))).toBe('not refused');
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2_000);
    expect(fake.memberRoles(sam.id)).toEqual([]);
    fake.holdRoleRequests({ applied: true });
    expect(await outcome(roles.add(GUILD_ID, sam.id, landed, 'x'))).toBe('not refused');
    expect(fake.memberRoles(sam.id)).toEqual([landed]);
    fake.restoreRoleRequests();
    // Asked again, as the shop does when the outcome is unknown: Discord holds the role once.
    await roles.add(GUILD_ID, sam.id, landed, 'x');
    expect(fake.memberRoles(sam.id)).toEqual([landed]);
  });
});

describe("members' roles from a client without a gateway (a child process)", () => {
  const fake = new FakeDiscord();
  let client: Client;
  let roles: MemberRoles;

  beforeAll(async () => {
    await fake.start();
    client = new Client({ intents: [], rest: { api: fake.apiUrl } });
    client.rest.setToken('fake-token');
    roles = discordRoles(client, { timeoutMs: TIMEOUT_MS });
  });

  afterAll(async () => {
    await client?.destroy();
    await fake.stop();
  });

  it("GIVEN a role below the bot's THEN it is given and taken through REST alone", async () => {
    const mia = freshMember('mia');
    fake.addMember(mia);
    const role = freshRole(fake);
    await roles.add(GUILD_ID, mia.id, role, 'bought');
    expect(fake.memberRoles(mia.id)).toEqual([role]);
    await roles.remove(GUILD_ID, mia.id, role, 'sold');
    expect(fake.memberRoles(mia.id)).toEqual([]);
  });

  it("GIVEN what Discord refuses THEN Discord's answers map to the refusals it can tell apart", async () => {
    const ben = freshMember('ben');
    fake.addMember(ben);
    const above = freshRole(fake, { position: BOT_ROLE_POSITION + 1 });
    const managed = freshRole(fake, { managed: true });
    const role = freshRole(fake);
    // Discord answers 50013 for each of these: rank, an integration's role, no Manage Roles.
    expect(await outcome(roles.add(GUILD_ID, ben.id, above, 'x'))).toBe('missing_permission');
    expect(await outcome(roles.add(GUILD_ID, ben.id, managed, 'x'))).toBe('missing_permission');
    fake.removeBotPermission('ManageRoles');
    expect(await outcome(roles.add(GUILD_ID, ben.id, role, 'x'))).toBe('missing_permission');
    fake.restoreBotPermissions();
    fake.expectRefusals();
    expect(await outcome(roles.add(GUILD_ID, ben.id, '929999999999999999', 'x'))).toBe('unknown_role');
    fake.removeMember(ben.id);
    expect(await outcome(roles.add(GUILD_ID, ben.id, role, 'x'))).toBe('unknown_member');
    expect(fake.memberRoles(ben.id)).toEqual([]);
  });

  it('GIVEN only a REST client THEN roles are given and taken the same way', async () => {
    const rest = new REST({ api: fake.apiUrl }).setToken('fake-token');
    const restOnly = discordRoles({ rest }, { timeoutMs: TIMEOUT_MS });
    const eva = freshMember('eva');
    fake.addMember(eva);
    const role = freshRole(fake);
    await restOnly.add(GUILD_ID, eva.id, role, 'bought');
    expect(fake.memberRoles(eva.id)).toEqual([role]);
    fake.removeMember(eva.id);
    fake.expectRefusals();
    expect(await outcome(restOnly.remove(GUILD_ID, eva.id, role, 'sold'))).toBe('unknown_member');
  });
});
