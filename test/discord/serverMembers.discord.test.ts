import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { FakeDiscord, type FakeUser } from '../support/fakeDiscord.js';
import { GUILD_ID } from '../support/fakeGuild.js';

const t = useTestDatabase('discord_server_members');

describe("members' join times, as Discord sends them with each interaction", () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t);
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  it("GIVEN a member who names another in a command THEN both are recorded in the server with Discord's join times", async () => {
    const mia: FakeUser = { ...freshMember('mia'), joinedAt: '2023-02-03T04:05:06.789Z' };
    const ben: FakeUser = { ...freshMember('ben'), joinedAt: '2021-11-12T13:14:15.000Z' };
    const [reply] = await fake.waitFor(fake.command(mia, 'cookies', ['balance'], { user: ben.id }, [ben]));
    expect(reply?.embeds[0]?.description ?? reply?.content).toBeTruthy();
    const members = harness.deps.serverMembers;
    expect(await members.joinedAt(GUILD_ID, mia.id)).toEqual(new Date('2023-02-03T04:05:06.789Z'));
    expect(await members.joinedAt(GUILD_ID, ben.id)).toEqual(new Date('2021-11-12T13:14:15.000Z'));
    const names = await members.members(GUILD_ID);
    expect(names.get(mia.id)).toBe('mia');
    expect(names.get(ben.id)).toBe('ben');
    const benRow = await t.cols.serverMembers.findOne({ _id: `${GUILD_ID}:${ben.id}` });
    expect(benRow?.joinedFrom).toBe('discord');
  });

  it('GIVEN a bot named in a command THEN it is no member of the leaderboard', async () => {
    const zoe = freshMember('zoe');
    const app: FakeUser = { ...freshMember('helper-app'), bot: true };
    await fake.waitFor(fake.command(zoe, 'cookies', ['balance'], { user: app.id }, [app]));
    expect(await harness.deps.serverMembers.inServer(GUILD_ID, [zoe.id, app.id])).toEqual(new Set([zoe.id]));
  });

  it("GIVEN members of this server THEN the leaderboard's default is this server, named in the title", async () => {
    await harness.deps.runtimeConfig.set('cookies.leaderboard_cooldown_s', '0', 'admin');
    const ana = freshMember('ana');
    const board = (await fake.waitFor(fake.command(ana, 'cookies', ['leaderboard']))).at(-1);
    expect(board?.embeds[0]?.title).toBe('Cookie leaderboard: this server');
    const global = (
      await fake.waitFor(fake.command(ana, 'cookies', ['leaderboard'], { scope: 'global' }))
    ).at(-1);
    expect(global?.embeds[0]?.title).toBe('Cookie leaderboard: all servers');
  });
});
