import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reminderTaskId, reminderTimes } from '../../utils/cookies/collectReminders.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { buttonId, CHANNEL_ID, FakeDiscord, type FakeUser } from '../support/fakeDiscord.js';

const t = useTestDatabase('discord_reminders');

const READY = 'Reminder: I can collect again';
const STREAK = 'Reminder: my collect streak ends in a few hours';
const DAY_MS = 86_400_000;
const STREAK_DE = 'Erinnerung: Meine Sammelserie endet in wenigen Stunden';

describe('collect reminders through the real discord.js client', () => {
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

  /** Presses the buttons of `/notifications` by their labels, in order, as the member sees them. */
  async function press(member: FakeUser, labels: string[]) {
    const [shown] = await fake.waitFor(fake.command(member, 'notifications', []));
    let message = shown;
    for (const label of labels) {
      if (!message) throw new Error('no /notifications reply');
      const [updated] = await fake.waitFor(fake.click(member, message, buttonId(message, label)));
      message = updated;
    }
    return message;
  }

  /** Collects; returns when the collect's cooldown ends. */
  async function collect(member: FakeUser): Promise<Date> {
    const at = harness.clock.now();
    await fake.waitFor(fake.command(member, 'cookies', ['collect']));
    const doc = await harness.deps.services.collect.rules();
    return new Date(at.getTime() + doc.cooldownMs);
  }

  async function advanceTo(at: Date) {
    harness.clock.advanceTo(new Date(at.getTime() + 1_000));
    await harness.deps.scheduler.runDue();
  }

  const dmRequests = (member: FakeUser) =>
    fake.calls.filter(
      (c) => c.method === 'POST' && c.path === '/users/@me/channels' && c.body?.recipient_id === member.id,
    );

  it('GIVEN a member who turned the collect reminder on WHEN the cooldown ends THEN one direct message names the command, and a second run of its task sends nothing', async () => {
    const member = freshMember('rita');
    const shown = await press(member, [READY]);
    expect(shown?.content).toContain('🔔 on · Reminder: I can collect again · ✉️ by direct message');
    const ready = await collect(member);

    await advanceTo(new Date(ready.getTime() - 60_000));
    expect(fake.directMessages.get(member.id) ?? []).toHaveLength(0);
    await advanceTo(ready);
    const dms = fake.directMessages.get(member.id) ?? [];
    expect(dms.map((m) => m.content)).toEqual([
      '🍪 Your Cookies are ready: collect them with /cookies collect.',
    ]);
    expect(dmRequests(member)).toHaveLength(1);

    // Another process takes the task up again (its lease ran out): the reminder went already.
    const id = reminderTaskId('collect_ready', member.id, ready);
    await t.cols.dueTasks.updateOne(
      { _id: id },
      { $set: { status: 'due', leaseOwner: null, leaseUntil: null } },
    );
    await harness.deps.scheduler.runDue();
    expect(fake.directMessages.get(member.id)).toHaveLength(1);
  });

  it('GIVEN a member who turned the reminder off after collecting THEN nothing comes', async () => {
    const member = freshMember('otto');
    await press(member, [READY]);
    const ready = await collect(member);
    const off = await press(member, [READY]);
    expect(off?.content).toContain('🔕 off · Reminder: I can collect again');
    await advanceTo(ready);
    expect(fake.directMessages.get(member.id)).toBeUndefined();
    expect(dmRequests(member)).toHaveLength(0);
  });

  it('GIVEN a member whose direct messages are closed THEN Discord refuses the one message, the reminder comes as a mention where they collected, and it is not tried again', async () => {
    const member = freshMember('cleo');
    fake.closeDms(member.id);
    await press(member, [READY]);
    const ready = await collect(member);
    const before = fake.channelPosts.get(CHANNEL_ID)?.length ?? 0;

    await advanceTo(ready);
    const refused = fake.refusals.filter((r) => r.code === 50007);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.arranged).toBe(true);
    const post = fake.channelPosts.get(CHANNEL_ID)?.slice(before) ?? [];
    expect(post.map((m) => m.content)).toEqual([
      `<@${member.id}> 🍪 Your Cookies are ready: collect them with /cookies collect.\n(This was meant as a direct message, but you take none from the bot; turn them on in the server's privacy settings, or choose a mention in /notifications.)`,
    ]);

    await advanceTo(new Date(ready.getTime() + 3 * 3_600_000));
    expect(fake.refusals.filter((r) => r.code === 50007)).toHaveLength(1);
    expect(fake.channelPosts.get(CHANNEL_ID)?.slice(before)).toHaveLength(1);
    expect(harness.logs.filter((l) => l.event === 'post.dm_closed' && l.userId === member.id)).toHaveLength(
      1,
    );
  });

  it('GIVEN a member with the streak reminder WHEN they collect again the same day and then the next THEN only the last collect reminds them, once', async () => {
    const member = freshMember('stella');
    await press(member, [STREAK]);
    const day = Math.floor(harness.clock.now().getTime() / DAY_MS) + 1;
    const at = (d: number, hours: number) => new Date(d * DAY_MS + hours * 3_600_000);
    const collectAt = async (when: Date) => {
      harness.clock.advanceTo(when);
      await collect(member);
    };
    await collectAt(at(day, 8));
    await collectAt(at(day, 10));
    await collectAt(at(day + 1, 9));
    await advanceTo(at(day + 1, 21));
    expect(fake.directMessages.get(member.id)).toBeUndefined();
    await advanceTo(at(day + 2, 20));
    expect(fake.directMessages.get(member.id)?.map((m) => m.content)).toEqual([
      `🔥 Your collect streak of 2 days ends <t:${(day + 3) * 86_400}:R>: keep it with /cookies collect.`,
    ]);
  });

  it('GIVEN a German member who chose a mention for the streak reminder THEN it comes hours before the streak breaks, in German, and notifies that member alone', async () => {
    const member = freshMember('greta', 'de');
    const bystander = freshMember('bert');
    const shown = await press(member, [STREAK_DE, `${STREAK_DE}: erwähne mich`]);
    expect(shown?.content).toContain(`🔔 an · ${STREAK_DE} · 📣 als Erwähnung`);
    const lastAt = harness.clock.now();
    const ready = await collect(member);
    await fake.waitFor(fake.command(bystander, 'cookies', ['collect']));
    const due = reminderTimes({ lastAt, until: ready, streak: 1 }, 4).streak_risk as Date;
    const calls = fake.calls.length;

    await advanceTo(new Date(due.getTime() - 60_000));
    expect(fake.messageBodies(calls)).toHaveLength(0);
    await advanceTo(due);
    const bodies = fake.messageBodies(calls);
    expect(bodies).toHaveLength(1);
    const breaks = Math.floor((Math.floor(lastAt.getTime() / 86_400_000) + 2) * 86_400);
    expect(bodies[0]?.content).toBe(
      `<@${member.id}> 🔥 Deine Sammelserie von 1 Tag reißt <t:${breaks}:R>: Rette sie mit /kekse sammeln.`,
    );
    expect(bodies[0]?.allowed_mentions).toEqual({ parse: [], users: [member.id], replied_user: false });
    expect(dmRequests(member)).toHaveLength(0);
  });
});
