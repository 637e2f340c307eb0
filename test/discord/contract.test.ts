import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { showSetting } from '../../src/runtimeConfig/settings.js';
import { ADMIN_ID, grantPlacePoints } from '../support/botHarness.js';
import {
  type Control,
  controls,
  familyOf,
  finalMessage,
  formFields,
  invocations,
  type OptionSource,
} from '../support/contractCrawl.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, startFakeBot } from '../support/discordHarness.js';
import { FakeDiscord, type FakeUser, type VisibleMessage } from '../support/fakeDiscord.js';
import { GUILD_ID } from '../support/fakeGuild.js';
import { seedBalance } from '../support/ledgerHarness.js';

/**
 * Discord's contract at the edges: every command, subcommand and component, as a member, a
 * moderator and an admin, in English and German, with the longest state a screen shows
 * (32-character names, seven-digit balances, every setting changed, full leaderboards and
 * histories, 200-character reasons), through the strict fake. Every request the bot makes must
 * be one Discord takes (the fake fails the test on any refusal), and every interaction must
 * get an answer.
 */
const t = useTestDatabase('discord_contract');

const MODERATOR_ID = '800000000000000007';
const SHOP_ROLE = '900000000000000777';
const RICH = 9_999_999;

/** A display name of Discord's longest (32 characters). */
function longName(i: number): string {
  return `Großherzogin Annegret ${String(i).padStart(2, '0')} Krümel`.padEnd(32, '·').slice(0, 32);
}

const members: FakeUser[] = Array.from({ length: 12 }, (_, i) => ({
  id: `8200000000000000${String(i).padStart(2, '0')}`,
  username: longName(i),
}));
const target = members[0] as FakeUser;
const forgotten: FakeUser = { id: '820000000000000099', username: longName(99) };

const roles = [
  ['member', { ...(members[10] as FakeUser) }],
  ['moderator', { id: MODERATOR_ID, username: longName(50) }],
  ['admin', { id: ADMIN_ID, username: longName(51) }],
] as const;
const locales = ['en-US', 'de'] as const;

/** Option values a member would type, by option name (`command sub option` where one differs). */
const SAMPLES: OptionSource['samples'] = {
  guess: '12,18,30,40,55,60,70,80',
  path: 1,
  x: 3,
  y: 4,
  zoom: 8,
  from: 0,
  to: 1,
  bet: 10,
  target: 50,
  stake: 100,
  small_blind: 5,
  max_buy_in: 1_000,
  buyin: 200,
  amount: 7,
  'admin cookies grant amount': RICH,
  reason: 'r'.repeat(200),
  points: '1234.567',
  worker: 'no-such-worker',
  area: '0,0,40,40',
  since: '1h',
  channel: '900000000000000201',
  // A role the server has: the faction a template is registered for.
  faction: SHOP_ROLE,
  feed: '900000000000000202',
  label: 'l'.repeat(40),
  id: 'no-such-worker',
  round: '1',
  value: 'v'.repeat(64),
  'settings set value': '100',
  width: 256,
  height: 256,
  days: 3_650,
  limit: 200,
};

const source: OptionSource = {
  samples: SAMPLES,
  userFor: (_, path) => (path.startsWith('admin privacy') ? forgotten : target),
};

/** Families pressed last: they end the member's data or the round for everyone after. */
const LAST = ['privacy.forget', 'privacy.admin_forget', 'hunt.reroll'];

describe("Discord's contract: every command and component, every role and language, the worst case", () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;
  const answered: { what: string; messages: VisibleMessage[] }[] = [];
  const pressed = new Set<string>();
  const usedMenus = new Set<string>();

  /** Sends one interaction and waits for its answer (the strict fake refuses what Discord refuses). */
  async function send(what: string, token: string): Promise<VisibleMessage[]> {
    const messages = await fake.waitFor(token, (m) => finalMessage(m) !== undefined, 30_000);
    answered.push({ what, messages });
    return messages;
  }

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t, { env: { MODERATOR_USER_IDS: MODERATOR_ID } });
    const { deps } = harness;
    for (const id of ['900000000000000201', '900000000000000202']) fake.addChannel(id);

    // Rich members with Discord's longest names, known to the bot, with long histories.
    await deps.services.vault.fund({ opId: 'contract-vault', adminId: ADMIN_ID, amount: RICH, reason: '' });
    for (const m of [...members, forgotten, ...roles.map(([, who]) => who)]) {
      for (let i = 0; i < 15; i++) await seedBalance(deps.ledger, m.id, 666_666);
      await send('seed', fake.command(m, 'cookies', ['balance']));
    }
    await grantPlacePoints(
      deps,
      members.map((m) => m.id),
      100_000,
    );
    for (const [i, m] of members.entries()) {
      await send('seed', fake.command(m, 'place', ['pixel'], { x: i, y: i, color: 'blue' }));
      await send('seed', fake.command(m, 'hunt', ['tip'], { guess: `${i},1,2,3,4,5,6,7` }));
    }

    // A full shelf of Discord's worst case: 25 items, 40-character names, 200-character
    // descriptions, roles for a while, stock and limits; each role's member owns an item.
    fake.addRole({ id: SHOP_ROLE, name: longName(70) });
    for (let i = 0; i < 25; i++) {
      await deps.services.shop.addItem({
        guildId: GUILD_ID,
        actorId: ADMIN_ID,
        kind: i % 3 === 0 ? 'role' : 'item',
        effect: i % 3 === 0 ? null : ((['padlock', 'streak_shield', 'custom'] as const)[i % 3] ?? 'custom'),
        roleId: i % 3 === 0 ? SHOP_ROLE : null,
        fields: {
          name: `${longName(i)} Angebot`.slice(0, 40),
          description: 'd'.repeat(200),
          price: 1_000_000 + i,
          stockLeft: 9_999,
          perMember: 999,
          requiredRoleId: i === 24 ? SHOP_ROLE : null,
          durationH: i % 2 === 0 ? 8_760 : null,
        },
      });
    }
    const shelf = await deps.services.shop.shelf(GUILD_ID);
    const ticket = shelf.find((item) => item.effect === 'custom');
    // Enough tickets that, after the inventory's commands used, gave and sold some and
    // `/trade add` put one in, a trade's Add item menu still has one to offer, in both languages.
    const TICKETS = 8;
    for (const [i, [, who]] of roles.entries()) {
      await seedBalance(deps.ledger, who.id, TICKETS * (ticket?.price ?? 0));
      for (let n = 0; n < TICKETS; n++)
        await deps.services.shop.buy({
          opId: `contract-buy-${i}-${n}`,
          guildId: GUILD_ID,
          userId: who.id,
          item: ticket?._id ?? '',
          roleIds: [],
        });
    }

    // Every setting changed by the admin, each channel setting naming a channel of the server.
    let channel = 300;
    for (const s of await deps.runtimeConfig.list()) {
      const text =
        s.kind === 'channel'
          ? String(900000000000000000n + BigInt(channel++))
          : showSetting(s.value, deps.i18n.for('en'), s.kind).replaceAll(',', '');
      if (s.kind === 'channel') fake.addChannel(text);
      await deps.runtimeConfig.set(s.key, text, ADMIN_ID);
    }
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  /** Presses a control as `who`, noting its family as used; returns what it answered (a form filled in). */
  async function press(who: FakeUser, control: Control): Promise<VisibleMessage[]> {
    pressed.add(familyOf(control.customId));
    const token =
      control.value === undefined
        ? fake.click(who, control.message, control.customId)
        : fake.choose(who, control.message, control.customId, [control.value]);
    return submitted(
      who,
      await send(`press ${familyOf(control.customId)}|${control.label}`, token),
      control.message,
    );
  }

  /** When an answer was a form, fills it in as a member would and sends it; else the answer itself. */
  async function submitted(
    who: FakeUser,
    messages: VisibleMessage[],
    from: VisibleMessage | null,
  ): Promise<VisibleMessage[]> {
    const form = finalMessage(messages);
    if (form?.via !== 'modal' || !form.modal) return messages;
    const family = familyOf(form.modal.custom_id);
    pressed.add(family);
    const token = fake.submitModal(who, from, form.modal.custom_id, formFields(form, '7'));
    return send(`submit ${family}`, token);
  }

  it('GIVEN a hand in play at a full-named table THEN every action the board offers is answered within the rules', async () => {
    const [host, second, third] = members.slice(1, 4) as [FakeUser, FakeUser, FakeUser];
    const table = finalMessage(await send('/poker create', fake.command(host, 'poker', ['create'])));
    const sit = controls(table).find((c) => c.label.startsWith('Sit')) as Control;
    let seated = table;
    for (const who of [host, second, third]) seated = finalMessage(await press(who, sit)) ?? seated;
    // Start shows once two are seated.
    const start = controls(seated).find((c) => c.label === 'Start') as Control;
    let board = finalMessage(await press(host, start));
    // Whoever is to act presses each action the board offers once, Raise… first (its form filled
    // in); the others are told it is not their turn.
    const done = new Set<string>();
    for (let turn = 0; turn < 12 && board; turn++) {
      const offered = controls(board).filter(
        (c) => ['poker.act', 'poker.raise'].includes(familyOf(c.customId)) && !done.has(c.label),
      );
      const action = offered.find((c) => familyOf(c.customId) === 'poker.raise') ?? offered[0];
      if (!action) break;
      done.add(action.label);
      for (const who of [host, second, third]) {
        const answer = finalMessage(await press(who, action));
        if (answer && !answer.ephemeral) {
          board = answer;
          break;
        }
      }
    }
    expect(done.size).toBeGreaterThan(2);
    const close = controls(board).find((c) => c.label === 'Close');
    if (close) await press(host, close);
    fake.checkRefusals();
  });

  it('GIVEN members with nothing in play WHEN one keeps and one confirms being forgotten THEN both answers are taken', async () => {
    for (const [i, button] of [
      [60, 'Keep my data'],
      [61, 'Erase my data'],
    ] as const) {
      const who: FakeUser = { id: `8200000000000000${i}`, username: longName(i) };
      await seedBalance(harness.deps.ledger, who.id, RICH);
      const prompt = finalMessage(await send('/privacy forget', fake.command(who, 'privacy', ['forget'])));
      const control = controls(prompt).find((c) => c.label === button);
      expect(control, `${button} on ${prompt?.content}`).toBeDefined();
      await press(who, control as Control);
    }
    fake.checkRefusals();
  });

  for (const [role, who] of roles) {
    for (const locale of locales) {
      it(`GIVEN ${role} in ${locale} WHEN they run every command and press every control THEN Discord takes every answer`, async () => {
        const me: FakeUser = { ...who, locale };
        const found: Control[] = [];
        // Each entry of a member's context menu, on the member with the longest name.
        for (const menu of ASSEMBLY.commands.flatMap((m) => m.userMenus ?? [])) {
          const what = `app ${menu.data.name}`;
          const answer = await submitted(
            me,
            await send(what, fake.userCommand(me, menu.data.name, target)),
            null,
          );
          usedMenus.add(menu.data.name);
          found.push(...controls(finalMessage(answer)));
        }
        for (const module of ASSEMBLY.commands) {
          for (const call of await invocations(fake, me, module, source)) {
            const what = `/${[call.name, ...call.path].join(' ')}`;
            const messages = await send(
              what,
              fake.command(me, call.name, call.path, call.options, call.users, call.files),
            );
            found.push(...controls(finalMessage(messages)));
          }
        }
        // Breadth first, each control once by family and label; the ones that end things last.
        const seen = new Set<string>();
        for (let depth = 0; depth < 3 && found.length > 0; depth++) {
          const level = found
            .splice(0)
            .sort(
              (a, b) =>
                Number(LAST.includes(familyOf(a.customId))) - Number(LAST.includes(familyOf(b.customId))),
            );
          for (const control of level) {
            const key = `${familyOf(control.customId)}|${control.label}`;
            if (seen.has(key)) continue;
            seen.add(key);
            found.push(...controls(finalMessage(await press(me, control))));
          }
        }
        fake.checkRefusals();
      });
    }
  }

  it('WHEN the timers then run for a day THEN every post and edit they make is one Discord takes', async () => {
    const { deps } = harness;
    for (let step = 0; step < 24 * 6; step++) {
      harness.clock.advance(10 * 60_000);
      await deps.scheduler.runDue();
    }
    const posts = [...fake.channelPosts.values()].flat();
    expect(posts.length).toBeGreaterThan(5);
    fake.checkRefusals();
  });

  it('THEN every command and every control family was used, and every interaction was answered', () => {
    const commands = new Set(answered.map((a) => a.what.split(' ')[0]));
    for (const module of ASSEMBLY.commands) expect(commands).toContain(`/${module.data.name}`);
    const families = ASSEMBLY.commands.flatMap((m) => m.components.map((c) => c.family));
    expect(families.filter((f) => !pressed.has(f))).toEqual([]);
    const menus = ASSEMBLY.commands.flatMap((m) => (m.userMenus ?? []).map((menu) => menu.data.name));
    expect(menus.filter((name) => !usedMenus.has(name))).toEqual([]);
    expect(answered.filter((a) => finalMessage(a.messages) === undefined)).toEqual([]);
    expect(answered.length).toBeGreaterThan(400);
  });
});
