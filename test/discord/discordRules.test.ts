import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showSetting } from '../../src/runtimeConfig/settings.js';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { buttonId, FakeDiscord, type FakeUser, type VisibleMessage } from '../support/fakeDiscord.js';
import { seedBalance } from '../support/ledgerHarness.js';

const t = useTestDatabase('discord_rules');

const admin: FakeUser = { id: ADMIN_ID, username: 'ada-with-a-name-of-32-characters' };
const germanAdmin: FakeUser = { ...admin, locale: 'de' };

/** Everything a member reads of an interaction's messages, in order. */
function readable(messages: VisibleMessage[]): string {
  return messages
    .flatMap((m) => [
      m.content,
      ...m.embeds.flatMap((e) => [
        e.title ?? '',
        e.description ?? '',
        ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
      ]),
    ])
    .join('\n');
}

describe("Discord's rules, as a server meets them on its first day", () => {
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

  it.each([
    ['English', admin, 'Administration', '/settings', '/admin cleanup inactive'],
    ['German', germanAdmin, 'Verwaltung', '/einstellungen', '/admin aufräumen inaktive'],
  ])(
    'GIVEN an admin in %s WHEN they run /help THEN Discord takes it and every admin command is listed',
    async (_, who, group, first, last) => {
      const token = fake.command(who, 'help', []);
      // A help longer than one message goes on in follow-ups: the last group comes last.
      const messages = await fake.waitFor(token, (m) => readable(m).includes(last));
      expect(messages[0]?.via).toBe('reply');
      const text = readable(messages);
      expect(text).toContain(group);
      expect(text).toContain(first);
      expect(text).toContain(last);
    },
  );

  it('GIVEN every setting changed by an admin WHEN they run /settings show THEN every setting arrives, over more than one message if it must', async () => {
    const settings = await harness.deps.runtimeConfig.list();
    const i18n = harness.deps.i18n.for('en');
    for (const s of settings) {
      const text = s.kind === 'channel' ? 'off' : showSetting(s.value, i18n, s.kind).replaceAll(',', '');
      await harness.deps.runtimeConfig.set(s.key, text, ADMIN_ID);
    }
    for (const who of [admin, germanAdmin]) {
      const token = fake.command(who, 'settings', ['show']);
      const messages = await fake.waitFor(token, (m) => m.length > 1);
      const text = readable(messages);
      for (const s of settings) expect(text).toContain(s.key.replace(`${s.feature}.`, ''));
      expect(messages.every((m) => m.ephemeral)).toBe(true);
    }
  });

  it('GIVEN Discord refuses the first reply THEN the member still gets the error with its reference as the first answer', async () => {
    const member = freshMember('mia');
    fake.refuseNext({ method: 'POST', path: '/callback' });
    const token = fake.command(member, 'cookies', ['balance']);
    const [answer] = await fake.waitFor(token);
    expect(answer?.via).toBe('reply');
    expect(answer?.ephemeral).toBe(true);
    const ref = /ref ([0-9A-F]{8})/.exec(answer?.content ?? '')?.[1];
    expect(answer?.content).toContain('Discord refused the request');
    expect(harness.logs.some((l) => l.event === 'interaction.failed' && l.ref === ref)).toBe(true);
  });

  it.each([
    ['a form', (m: FakeUser) => fake.submitModal(m, null, 'someone.form:1', { amount: '10' }), 'forms'],
    [
      'a context-menu command',
      (m: FakeUser) => fake.userCommand(m, 'Report member', freshMember('zoe')),
      'context menu',
    ],
  ])(
    'WHEN a member sends %s no feature handles THEN they are told so privately, in their language',
    async (_, send, words) => {
      const member = freshMember('mia');
      const [answer] = await fake.waitFor(send(member));
      expect(answer?.ephemeral).toBe(true);
      expect(answer?.content).toContain(words);
      const german = await fake.waitFor(send({ ...freshMember('mia'), locale: 'de' }));
      expect(german[0]?.content).toContain('/hilfe');
      expect(german[0]?.content).toMatch(/reagiert dieser Bot nicht/);
    },
  );

  it('WHEN a member picks people in a user menu no feature offers THEN they are told the control no longer works', async () => {
    const member = freshMember('mia');
    const [help] = await fake.waitFor(fake.command(member, 'help', []));
    const token = fake.chooseUsers(member, help as VisibleMessage, 'gone.menu:1', [freshMember('zoe')]);
    const [answer] = await fake.waitFor(token);
    expect(answer?.ephemeral).toBe(true);
    expect(answer?.content).toContain('no longer works');
  });

  it('GIVEN the audit channel WHEN an admin grants Cookies THEN the post names both without notifying either', async () => {
    fake.addChannel('900000000000000131', 'audit');
    await fake.waitFor(
      fake.command(admin, 'settings', ['set'], {
        key: 'admin.audit_channel',
        value: '900000000000000131',
      }),
    );
    const member = freshMember('mia');
    const grant = fake.command(admin, 'admin', ['cookies', 'grant'], { user: member.id, amount: 5 }, [
      member,
    ]);
    await fake.waitFor(grant);
    await harness.deps.scheduler.runDue();
    const posts = fake.calls.filter((c) => c.path === '/channels/900000000000000131/messages');
    const grantPost = posts.find((c) => String(c.body?.content).includes(`<@${member.id}>`));
    expect(grantPost?.body?.content).toContain(`<@${ADMIN_ID}>`);
    expect(grantPost?.body?.allowed_mentions).toEqual({ parse: [], users: [], replied_user: false });
  });

  it('GIVEN a victim who turned robbery notifications on THEN the thief’s public reply notifies them, and nobody else', async () => {
    const thief = freshMember('tim');
    const victim = freshMember('vic');
    const bystander = freshMember('bea');
    for (const who of [thief, victim, bystander]) await seedBalance(harness.deps.ledger, who.id, 100_000);
    // A thief carries what their collects put in their loot bag.
    await fake.waitFor(fake.command(thief, 'cookies', ['collect']));
    await fake.waitFor(fake.command(bystander, 'cookies', ['balance']));
    // Every attempt is caught (a public reply naming the victim), at once, without protection
    // (nor the start delay that setting every setting above began).
    for (const [key, value] of [
      ['cookies.steal_protection_h', '0'],
      ['cookies.steal_start_delay_h', '0'],
      ['cookies.steal_cooldown_s', '0'],
      ['cookies.steal_base_chance_pct', '0'],
      ['cookies.steal_max_chance_pct', '0'],
      ['cookies.steal_min_chance_pct', '0'],
    ] as const)
      await harness.deps.runtimeConfig.set(key, value, ADMIN_ID);

    const [settings] = await fake.waitFor(fake.command(victim, 'notifications', []));
    const turnOn = buttonId(settings, 'Robbery: someone steals from me or tries to');
    const [updated] = await fake.waitFor(fake.click(victim, settings as VisibleMessage, turnOn));
    expect(updated?.content).toMatch(/🔔 on · Robbery/);

    const robbed = async (who: FakeUser) => {
      const token = fake.command(thief, 'cookies', ['steal'], { user: who.id }, [who]);
      const [reply] = await fake.waitFor(token);
      expect(reply?.content).toContain(`<@${who.id}>`);
      const callback = fake.calls.find((c) => c.path.includes(token) && c.path.endsWith('/callback'));
      return (callback?.body?.data as { allowed_mentions?: unknown } | undefined)?.allowed_mentions;
    };
    expect(await robbed(victim)).toEqual({ parse: [], users: [victim.id], replied_user: false });
    expect(await robbed(bystander)).toEqual({ parse: [], users: [], replied_user: false });
  });

  it('GIVEN everything above THEN every message the bot sent carried allowed_mentions that parse nothing', () => {
    const bodies = fake.messageBodies();
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) expect((body.allowed_mentions as { parse?: unknown })?.parse).toEqual([]);
  });

  it('GIVEN a channel where the bot may not attach files THEN setting it says so, and /settings show too', async () => {
    fake.addChannel('900000000000000132', 'canvas');
    fake.denyBot('900000000000000132', ['AttachFiles', 'EmbedLinks']);
    const [reply] = await fake.waitFor(
      fake.command(admin, 'settings', ['set'], { key: 'place_channel', value: '900000000000000132' }),
    );
    expect(reply?.content).toContain('The bot lacks Embed Links and Attach Files in <#900000000000000132>');
    const [shown] = await fake.waitFor(fake.command(germanAdmin, 'settings', ['show'], { feature: 'place' }));
    expect(readable([shown as VisibleMessage])).toContain(
      'Dem Bot fehlt in diesem Kanal: Links einbetten und Dateien anhängen',
    );
    const lacking = await harness.deps.poster.checkChannels();
    expect(lacking).toContainEqual({
      setting: 'place_channel',
      channelId: '900000000000000132',
      missing: ['EmbedLinks', 'AttachFiles'],
    });
    expect(
      harness.logs.some((l) => l.event === 'post.permissions_missing' && l.setting === 'place_channel'),
    ).toBe(true);
  });
});
