import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ID, fundVaultAndMembers, grantPlacePoints } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { DISCORD_ERRORS } from '../support/discordErrors.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import {
  buttonId,
  CHANNEL_ID,
  FakeDiscord,
  type FakeUser,
  type VisibleMessage,
} from '../support/fakeDiscord.js';

/**
 * Attacks on Discord's contract, by members, moderators and admins: hostile text in every
 * free-text option, odd typing in every autocompleted option, presses on old, foreign and
 * racing controls, Discord refusing any one request of an interaction or losing the answer to
 * one it took, timers posting to channels the bot cannot use, in a German server. Every request
 * must be one Discord takes (the strict fake fails a test on any other), every interaction must
 * end with something the member sees, and nothing may notify a member who did not opt in.
 */
const t = useTestDatabase('discord_attacks');

const MODERATOR_ID = '800000000000000007';

/** A display name of Discord's longest (32 characters). */
function longName(i: number): string {
  return `Großherzogin Annegret ${String(i).padStart(2, '0')} Krümel`.padEnd(32, '·').slice(0, 32);
}

const admin: FakeUser = { id: ADMIN_ID, username: longName(90) };
const germanAdmin: FakeUser = { ...admin, locale: 'de' };
const moderator: FakeUser = { id: MODERATOR_ID, username: longName(91), locale: 'de' };

/** Text a member can type that Discord would render as pings, markup, reversed or invisible text. */
function hostile(length: number, victim: FakeUser): string {
  const pattern = `@everyone @here <@&900000000000000004> <@${victim.id}> **b** \`c\` ||s|| \u202e\u200b🍪👨‍👩‍👧 `;
  // Cut by code points, as Discord counts an option's length: never half an emoji.
  return Array.from(pattern.repeat(Math.ceil(length / 10)))
    .slice(0, length)
    .join('');
}

/** What an interaction left that a member can see: anything but a "thinking…" placeholder. */
function seen(messages: VisibleMessage[]): VisibleMessage[] {
  return messages.filter((m) => m.via !== 'deferred' && m.via !== 'suggestions');
}

/** The custom id of the first control of `family` on a message. */
function control(message: VisibleMessage | undefined, family: string): string {
  const found = message?.components
    .flatMap((row) => row.components)
    .find((c) => c.custom_id === family || c.custom_id.startsWith(`${family}:`));
  if (!found) throw new Error(`no ${family} control on ${JSON.stringify(message)}`);
  return found.custom_id;
}

function mentionRules(body: Record<string, unknown>): { parse?: unknown; users?: string[] } | undefined {
  return body.allowed_mentions as { parse?: unknown; users?: string[] } | undefined;
}

describe("Discord's contract under attack: hostile input, races, refusals and unusable channels", () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;
  /** Members who turned a kind of notification on in this suite: the only ones a message may notify. */
  const optedIn = new Set<string>();

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t, { env: { MODERATOR_USER_IDS: MODERATOR_ID } });
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  async function turnOn(member: FakeUser, label: RegExp): Promise<void> {
    const [settings] = await fake.waitFor(fake.command(member, 'notifications', []));
    const button = settings?.components
      .flatMap((row) => row.components)
      .find((c) => label.test(c.label ?? ''));
    if (!button) throw new Error(`no notification ${label} on ${JSON.stringify(settings)}`);
    await fake.waitFor(fake.click(member, settings as VisibleMessage, button.custom_id));
    optedIn.add(member.id);
  }

  async function answered(token: string): Promise<VisibleMessage[]> {
    return fake.waitFor(token, (m) => seen(m).length > 0, 20_000);
  }

  it.each([
    ['/help topic', 'help', [], 'topic'],
    ['/place pixel color', 'place', ['pixel'], 'color'],
    ['/settings show feature', 'settings', ['show'], 'feature'],
    ['/settings set key', 'settings', ['set'], 'key'],
  ] as const)(
    'GIVEN odd typing in %s WHEN members, a moderator and admins type it THEN every suggestion list is one Discord shows',
    async (_, name, path, option) => {
      const typed = [
        '',
        ' ',
        '\u200b',
        '\u202e',
        '@everyone',
        '<@&1>',
        '🍪',
        'ö',
        '%',
        '.*',
        'x'.repeat(100),
      ];
      for (const who of [freshMember('mia'), freshMember('mila', 'de'), moderator, admin, germanAdmin]) {
        for (const text of typed) {
          const choices = await fake.suggestions(
            fake.autocomplete(who, name, [...path], { [option]: text }, option),
          );
          expect(choices.length).toBeLessThanOrEqual(25);
          for (const choice of choices) {
            expect(choice.name.length).toBeGreaterThan(0);
            expect(choice.name.length).toBeLessThanOrEqual(100);
            expect(choice.value.length).toBeLessThanOrEqual(100);
          }
        }
      }
    },
  );

  it('GIVEN mentions, markup, reversed and invisible text at every free-text option’s longest WHEN members, a moderator and an admin send them THEN each is answered and nothing they typed notifies anyone, not even a member who opted in', async () => {
    const victim = freshMember(longName(1));
    await turnOn(victim, /^Robbery/);
    const member = freshMember(longName(2), 'de');
    await fundVaultAndMembers(harness.deps, 100_000, [member.id, victim.id], 1_000);
    fake.addChannel('900000000000000801', 'audit');
    await harness.deps.runtimeConfig.set('admin.audit_channel', '900000000000000801', ADMIN_ID);
    const since = fake.calls.length;
    const sends: [FakeUser, string, string[], Record<string, string | number>, FakeUser[]][] = [
      [
        germanAdmin,
        'admin',
        ['cookies', 'grant'],
        { user: victim.id, amount: 5, reason: hostile(200, victim) },
        [victim],
      ],
      [admin, 'admin', ['vault', 'fund'], { amount: 5, reason: hostile(200, victim) }, []],
      [
        moderator,
        'admin',
        ['place', 'grant'],
        { points: '1', target: victim.id, reason: hostile(200, victim) },
        [victim],
      ],
      [
        moderator,
        'admin',
        ['place', 'grant'],
        { points: hostile(20, victim), worker: hostile(40, victim) },
        [],
      ],
      [member, 'hunt', ['worker', 'link'], { label: hostile(40, victim) }, []],
      [member, 'hunt', ['worker', 'list'], {}, []],
      [member, 'hunt', ['worker', 'unlink'], { id: hostile(40, victim) }, []],
      [member, 'hunt', ['tip'], { guess: hostile(60, victim) }, []],
      [member, 'games', ['fairness', 'seed'], { value: hostile(64, victim) }, []],
      [member, 'games', ['verify'], { round: hostile(40, victim) }, []],
      [member, 'help', [], { topic: hostile(40, victim) }, []],
      [member, 'place', ['pixel'], { x: 1, y: 1, color: hostile(20, victim) }, []],
      [germanAdmin, 'settings', ['set'], { key: hostile(100, victim), value: hostile(100, victim) }, []],
      [admin, 'settings', ['set'], { key: 'cookies.give_max', value: hostile(100, victim) }, []],
      [germanAdmin, 'settings', ['show'], { feature: hostile(50, victim) }, []],
      [
        admin,
        'admin',
        ['place', 'rollback'],
        { user: victim.id, area: hostile(30, victim), since: hostile(10, victim) },
        [victim],
      ],
      [admin, 'admin', ['place', 'channel'], { channel: hostile(40, victim) }, []],
    ];
    for (const [who, name, path, options, users] of sends) {
      await answered(fake.command(who, name, path, options, users));
    }
    await harness.deps.scheduler.runDue();
    const audit = fake.channelPosts.get('900000000000000801') ?? [];
    expect(audit.some((post) => post.content.includes('@everyone'))).toBe(true);
    const bodies = fake.messageBodies(since);
    expect(bodies.length).toBeGreaterThanOrEqual(sends.length);
    for (const body of bodies)
      expect(mentionRules(body)).toEqual({ parse: [], users: [], replied_user: false });
  });

  it('GIVEN a heist crew message WHEN one member presses Join three times at once and another once THEN each joins once, the repeats are told privately, the timer ends it on the same message, and a later press is told it set off', async () => {
    await harness.deps.runtimeConfig.set('vault.heist_cooldown_s', '0', ADMIN_ID);
    harness.clock.advance(86_400_000);
    const leader = freshMember(longName(11), 'de');
    const eager = freshMember(longName(12), 'de');
    const calm = freshMember(longName(13));
    await fundVaultAndMembers(harness.deps, 1_000_000, [leader.id, eager.id, calm.id], 1_000);
    const [crew] = await fake.waitFor(fake.command(leader, 'vault', ['heist'], { stake: 100 }));
    const join = control(crew, 'vault.heist_join');
    const presses = [eager, eager, eager, calm].map((m) => fake.click(m, crew as VisibleMessage, join));
    const answers = await Promise.all(presses.map(answered));
    const updates = answers.flat().filter((m) => m.via === 'update');
    expect(updates).toHaveLength(2);
    expect(answers.flat().filter((m) => m.ephemeral)).toHaveLength(2);
    harness.clock.advance(3_600_000);
    await harness.deps.scheduler.runDue();
    const ended = (fake.channelEdits.get(CHANNEL_ID) ?? []).filter((e) => e.id === crew?.id).at(-1);
    expect(ended?.embeds[0]?.description).toContain(`Crew (3 members)`);
    expect(ended?.components).toEqual([]);
    // The old message's button, pressed again by someone new: told privately, nothing moves.
    const late = freshMember(longName(14));
    const [told] = seen(await answered(fake.click(late, crew as VisibleMessage, join)));
    expect(told?.ephemeral).toBe(true);
    expect(told?.content).toContain('already set off');
  });

  it('GIVEN a blackjack hand WHEN its member presses Hit, Stand and Hit at once, another member presses Hit, and its timer runs out meanwhile THEN every press is answered and the hand’s message ends settled', async () => {
    const player = freshMember(longName(20));
    await fundVaultAndMembers(harness.deps, 1_000_000, [player.id], 100_000);
    let hand: VisibleMessage | undefined;
    // A natural settles at once and shows no buttons: deal until a hand is in play.
    for (let i = 0; i < 30 && (hand?.components.length ?? 0) === 0; i++) {
      [hand] = await fake.waitFor(fake.command(player, 'games', ['blackjack'], { bet: 100 }));
    }
    const [hit, stand] = [buttonId(hand, 'Hit'), buttonId(hand, 'Stand')];
    const stranger = freshMember('Fremder');
    const presses = [
      fake.click(player, hand as VisibleMessage, hit),
      fake.click(player, hand as VisibleMessage, stand),
      fake.click(player, hand as VisibleMessage, hit),
      fake.click(stranger, hand as VisibleMessage, hit),
    ];
    harness.clock.advance(86_400_000);
    const timers = harness.deps.scheduler.runDue();
    const answers = await Promise.all(presses.map(answered));
    await timers;
    expect(seen(answers[3] ?? [])[0]?.ephemeral).toBe(true);
    expect(seen(answers[3] ?? [])[0]?.content).toContain(`<@${player.id}>`);
    await harness.deps.scheduler.runDue();
    const shown = [...answers.slice(0, 3).flat(), ...(fake.channelEdits.get(CHANNEL_ID) ?? [])];
    const settled = shown.filter((m) => m.id === hand?.id && m.components.length === 0);
    expect(settled.length).toBeGreaterThan(0);
  });

  it.each([
    ['a reply', async () => () => fake.command(freshMember('mia'), 'cookies', ['balance'])],
    [
      'a public deferral and its edit',
      async () => () => fake.command(freshMember('mia'), 'cookies', ['leaderboard']),
    ],
    [
      'a public deferral answered privately',
      async () => () => fake.command(freshMember('mia'), 'place', ['view'], { x: 2_047 }),
    ],
    [
      'an update of a menu’s message',
      async () => {
        const member = freshMember('mia', 'de');
        const [help] = await fake.waitFor(fake.command(member, 'help', []));
        return () => fake.choose(member, help as VisibleMessage, control(help, 'help.topic'), ['Kekse']);
      },
    ],
    [
      'a silent acknowledgement and its edit',
      async () => {
        const member = freshMember('mia');
        const [prompt] = await fake.waitFor(fake.command(member, 'privacy', ['forget']));
        return () => fake.click(member, prompt as VisibleMessage, control(prompt, 'privacy.forget'));
      },
    ],
  ])(
    'GIVEN %s WHEN Discord refuses any one of its requests THEN the member still sees an answer',
    async (_, prepare) => {
      const first = await prepare();
      const before = fake.calls.length;
      const token = first();
      await answered(token);
      // Every request of the interaction, the last ones included (a follow-up after a deletion).
      await new Promise((resolve) => setTimeout(resolve, 300));
      const requests = fake.calls.slice(before).filter((c) => c.path.includes(token)).length;
      for (let k = 0; k < requests; k++) {
        const act = await prepare();
        let current = '';
        let counted = 0;
        fake.refuseNext(({ path }) => current !== '' && path.includes(current) && counted++ === k);
        current = act();
        const messages = await answered(current);
        expect(seen(messages)[0]?.ephemeral).toBe(true);
      }
    },
  );

  it('GIVEN a German server whose every channel setting names a channel the bot cannot use WHEN its timers run for a day THEN Discord takes every edit and each outcome is told on its own message in German', async () => {
    fake.guildLocale = 'de';
    try {
      const players = [0, 1, 2, 3].map((i) => freshMember(longName(30 + i), 'de')) as [
        FakeUser,
        FakeUser,
        FakeUser,
        FakeUser,
      ];
      await fundVaultAndMembers(
        harness.deps,
        5_000_000,
        players.map((p) => p.id),
        100_000,
      );
      await grantPlacePoints(
        harness.deps,
        players.map((p) => p.id),
        10_000,
      );
      const unusable: [string, Parameters<FakeDiscord['denyBot']>[1]][] = [
        ['900000000000000811', ['ViewChannel']],
        ['900000000000000812', ['SendMessages']],
        ['900000000000000813', ['EmbedLinks', 'AttachFiles']],
      ];
      for (const [id, denied] of unusable) {
        fake.addChannel(id);
        fake.denyBot(id, denied);
      }
      let i = 0;
      for (const s of await harness.deps.runtimeConfig.list()) {
        if (s.kind !== 'channel') continue;
        await harness.deps.runtimeConfig.set(s.key, unusable[i++ % unusable.length]?.[0] as string, ADMIN_ID);
      }
      harness.clock.advance(86_400_000);
      for (const p of players) {
        await answered(fake.command(p, 'hunt', ['tip'], { guess: '1,2,3,4,5,6,7,8' }));
        await answered(fake.command(p, 'place', ['pixel'], { x: 3, y: 4, color: 'rot' }));
      }
      const [crew] = await answered(fake.command(players[0], 'vault', ['heist'], { stake: 100 }));
      await answered(fake.click(players[1], crew as VisibleMessage, control(crew, 'vault.heist_join')));
      const [table] = await answered(fake.command(players[2], 'poker', ['create']));
      for (const p of [players[2], players[3]])
        await answered(fake.click(p, table as VisibleMessage, control(table, 'poker.sit')));
      for (let step = 0; step < 24 * 6; step++) {
        harness.clock.advance(10 * 60_000);
        await harness.deps.scheduler.runDue();
      }
      const edits = fake.channelEdits.get(CHANNEL_ID) ?? [];
      const crewEnd = edits.filter((e) => e.id === crew?.id).at(-1);
      expect(crewEnd?.embeds[0]?.title).toBe('🏦 Tresorraub');
      expect(crewEnd?.components).toEqual([]);
      const tableEnd = edits.filter((e) => e.id === table?.id).at(-1);
      expect(tableEnd?.components).toEqual([]);
      expect(fake.refusals.filter((r) => !r.arranged)).toEqual([]);
    } finally {
      fake.guildLocale = 'en-US';
    }
  });

  it('GIVEN a blackjack hand whose message a moderator deleted WHEN its member walks away and the timer stands the hand THEN the member is still told how it ended, in the channel', async () => {
    const player = freshMember(longName(21));
    await fundVaultAndMembers(harness.deps, 1_000_000, [player.id], 100_000);
    let hand: VisibleMessage | undefined;
    for (let i = 0; i < 30 && (hand?.components.length ?? 0) === 0; i++) {
      [hand] = await fake.waitFor(fake.command(player, 'games', ['blackjack'], { bet: 100 }));
    }
    expect(hand?.components.length).toBeGreaterThan(0);
    // Discord's answer to an edit of a message that is gone.
    fake.refuseNext({ method: 'PATCH', path: `/messages/${hand?.id}` }, DISCORD_ERRORS.unknownMessage);
    const postsBefore = (fake.channelPosts.get(CHANNEL_ID) ?? []).length;
    harness.clock.advance(86_400_000);
    await harness.deps.scheduler.runDue();
    expect(fake.refusals.some((r) => r.path.endsWith(`/messages/${hand?.id}`) && r.code === 10008)).toBe(
      true,
    );
    const told = (fake.channelPosts.get(CHANNEL_ID) ?? []).slice(postsBefore);
    expect(told.map((post) => post.content)).toContainEqual(expect.stringContaining(`<@${player.id}>`));
  });

  it('GIVEN a German admin WHEN they grant more Cookies than an account may hold THEN the refusal is in German, with the limit written the German way', async () => {
    const member = freshMember(longName(40), 'de');
    // Discord's client sends no amount over the option's max_value (the largest balance): the
    // grant that would pass it is the largest amount to a member who holds some already.
    await harness.deps.services.cookies.grant({
      opId: `grant-one:${member.id}`,
      adminId: ADMIN_ID,
      to: member.id,
      amount: 1,
      reason: '',
    });
    const [reply] = await answered(
      fake.command(
        germanAdmin,
        'admin',
        ['cookies', 'grant'],
        { user: member.id, amount: 1_000_000_000_000 },
        [member],
      ),
    );
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).not.toMatch(/amount must be|largest balance/);
    expect(reply?.content).toContain('1.000.000.000.000');
  });

  it('GIVEN everything above THEN every message carried allowed_mentions that parse nothing and notify only members who opted in', () => {
    const bodies = fake.messageBodies();
    expect(bodies.length).toBeGreaterThan(50);
    for (const body of bodies) {
      const rules = mentionRules(body);
      expect(rules?.parse).toEqual([]);
      for (const user of rules?.users ?? []) expect(optedIn).toContain(user);
    }
  });

  // Last: it makes the canvas as large as it gets.
  it('GIVEN the largest canvas with 238 versions WHEN a member asks for its timelapse THEN members pressing meanwhile are still answered within Discord’s 3 seconds', async () => {
    await answered(fake.command(admin, 'admin', ['place', 'resize'], { width: 2_048, height: 2_048 }));
    const painter = freshMember('Pia');
    await grantPlacePoints(harness.deps, [painter.id], 1_000_000);
    await harness.deps.runtimeConfig.set('place_pixel_cost', '1', ADMIN_ID);
    for (let i = 0; i < 238; i++) {
      await harness.deps.services.place.place({
        opId: `attack-pixel-${i}`,
        userId: painter.id,
        x: (i * 97) % 2_048,
        y: (i * 389) % 2_048,
        color: i % 30,
      });
    }
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    const timelapse = fake.command(freshMember('Tim'), 'place', ['timelapse']);
    await fake.waitFor(timelapse, (m) => m.length > 0);
    const bystanders: string[] = [];
    const pressing = setInterval(
      () => bystanders.push(fake.command(freshMember('Bea'), 'cookies', ['balance'])),
      50,
    );
    try {
      await fake.waitFor(timelapse, (m) => seen(m).length > 0, 60_000);
    } finally {
      clearInterval(pressing);
      stalls.disable();
    }
    const answers = await Promise.all(
      bystanders.map((token) =>
        fake
          .waitFor(token, (m) => seen(m).length > 0, 5_000)
          .then(() => null)
          .catch(() => token),
      ),
    );
    const unanswered = answers.filter((token) => token !== null);
    // The fake answers a callback after 3 s as Discord does: Unknown interaction.
    fake.expectRefusals();
    expect(bystanders.length).toBeGreaterThan(0);
    expect(unanswered, 'members shown "This interaction failed" while the timelapse was encoded').toEqual([]);
    // The safety deferral is due 2 s after an interaction arrives: a longer stall than the second
    // left of Discord's 3 makes every interaction then in flight miss it.
    expect(Math.round(stalls.max / 1e6), 'ms in which the bot could answer nobody').toBeLessThan(1_000);
  }, 120_000);
});

/**
 * Between the bot and the fake Discord: forwards every request as it is, and can lose the answer
 * to one Discord took (a 500 after the work was done, as Discord answers in an incident), so
 * discord.js retries it and hears "already acknowledged".
 */
class LossyLink {
  readonly #server: Server;
  readonly #lose: ((method: string, path: string) => boolean)[] = [];
  #port = 0;

  constructor(private readonly fake: FakeDiscord) {
    this.#server = createServer((req, res) => {
      this.#forward(req, res).catch((error: unknown) => {
        res.writeHead(502);
        res.end(String(error));
      });
    });
  }

  async start(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.#port}/api`;
  }

  /** The next request matching is done by Discord, and its answer lost on the way back. */
  loseAnswerToNext(match: (method: string, path: string) => boolean): void {
    this.#lose.push(match);
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = new URL(req.url ?? '/', this.fake.apiUrl);
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && key !== 'host' && key !== 'content-length') headers[key] = value;
    }
    const method = req.method ?? 'GET';
    const answer = await fetch(target, {
      method,
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const lost = this.#lose.findIndex((match) => match(method, target.pathname));
    if (lost >= 0) {
      this.#lose.splice(lost, 1);
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: '500: Internal Server Error', code: 0 }));
      return;
    }
    const type = answer.headers.get('content-type');
    res.writeHead(answer.status, type ? { 'content-type': type } : {});
    res.end(body);
  }
}

describe('when Discord took a callback but its answer was lost on the way back', () => {
  const fake = new FakeDiscord();
  const link = new LossyLink(fake);
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    await link.start();
    harness = await startFakeBot(fake, t, { apiUrl: link.apiUrl });
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await link.stop();
    await fake.stop();
  });

  it('GIVEN Discord took a member’s public deferral and its answer was lost WHEN discord.js retries and hears "already acknowledged" THEN the member still gets the leaderboard or an error, not "thinking…" forever', async () => {
    const member = freshMember('mia');
    link.loseAnswerToNext((method, path) => method === 'POST' && path.endsWith('/callback'));
    const token = fake.command(member, 'cookies', ['leaderboard']);
    await fake.waitFor(token, (m) => m.some((x) => x.via === 'deferred'));
    // Discord's answer to the retry is the scenario itself.
    fake.expectRefusals();
    const messages = await fake
      .waitFor(token, (m) => seen(m).length > 0, 5_000)
      .catch(() => fake.messages(token));
    expect(seen(messages), 'the member is left looking at "CookieBot is thinking…"').not.toEqual([]);
    expect(harness.logs.some((l) => l.event === 'interaction.reply_failed')).toBe(false);
  });
});
