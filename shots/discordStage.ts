/**
 * The bot's Discord replies for `npm run shots`, made by the real commands: each server's shop
 * is stocked by a moderator's `/shop add-role` and `/shop add-item` through the same
 * `InteractionRuntime` Discord drives, members are funded through the ledger and buy through the
 * shop's service, and every reply the runtime sends is kept as Discord would get it.
 */
import { ASSEMBLY } from '../commands/index.js';
import type { ConsoleRoles } from '../src/console/consoleRoles.js';
import type { Locale } from '../src/i18n/i18n.js';
import { InteractionRuntime } from '../src/interactions/runtime.js';
import {
  BARE_INVOCATION,
  type BotDeps,
  type DeferMode,
  type Invocation,
  type Reply,
  type Responder,
  type SentMessage,
} from '../src/interactions/types.js';

/** Who acts in one server, and what the server sells, in its own language. */
export interface Cast {
  locale: Locale;
  guildId: string;
  moderator: Person;
  /** Funded well: owns what the staging bought. */
  buyer: Person;
  /** Funded with little: refused when buying the role. */
  short: Person;
  vipRoleId: string;
  ticket: { name: string; description: string };
}

export interface Person {
  id: string;
  name: string;
}

export const CASTS: Record<Locale, Cast> = {
  en: {
    locale: 'en',
    guildId: '897400000000000001',
    moderator: { id: '897400000000000101', name: 'Ada' },
    buyer: { id: '897400000000000111', name: 'Chiara Lindqvist' },
    short: { id: '897400000000000112', name: 'Bruno' },
    vipRoleId: '897400000000000901',
    ticket: {
      name: 'Raffle ticket',
      description: 'One ticket for Friday’s raffle: the more you hold, the better your odds.',
    },
  },
  de: {
    locale: 'de',
    guildId: '897400000000000002',
    moderator: { id: '897400000000000201', name: 'Ada' },
    buyer: { id: '897400000000000211', name: 'Jörg Müller-Lüdenscheidt' },
    short: { id: '897400000000000212', name: 'Lena' },
    vipRoleId: '897400000000000902',
    ticket: {
      name: 'Tombola-Los',
      description: 'Ein Los für die Tombola am Freitag: Je mehr du hast, desto besser deine Chancen.',
    },
  },
};

/** One interaction: the replies it got, and the command that began it (the line Discord shows above). */
export interface Exchange {
  replies: Reply[];
  /** `[command, subcommand]` in English: the header says them in the member's language. */
  command: [string, string];
  member: Person;
}

/** Keeps what the runtime sends, as Discord would show it. */
class Recorder implements Responder {
  state: Responder['state'] = 'fresh';
  readonly sent: Reply[] = [];

  constructor(private readonly messageId: string) {}

  async defer(_mode: DeferMode): Promise<void> {
    this.state = 'deferred';
  }

  async send(reply: Reply): Promise<SentMessage | null> {
    this.state = 'replied';
    this.sent.push(reply);
    return reply.ephemeral ? null : { messageId: `${this.messageId}-${this.sent.length}` };
  }
}

/** Interactions are numbered across servers: two staged side by side never share an id. */
let interactions = 0;
const RUN = Date.now();

/** A server's members using the bot's commands and components, as Discord sends them. */
export class Server {
  #command: [string, string] = ['', ''];

  constructor(
    private readonly runtime: InteractionRuntime,
    private readonly roles: ConsoleRoles,
    readonly cast: Cast,
  ) {}

  command(
    member: Person,
    [commandName, subcommand]: [string, string],
    options: Invocation['options'] = {},
    extra: Partial<Invocation> = {},
  ): Promise<Exchange> {
    this.#command = [commandName, subcommand];
    return this.#dispatch(member, { kind: 'command', commandName, subcommand, options, ...extra });
  }

  /** Apps › `entry` on `target`, by the name the member's client shows. */
  app(member: Person, entry: string, target: Person): Promise<Exchange> {
    const menu = ASSEMBLY.commands.flatMap((c) => c.userMenus ?? []).find((m) => m.data.name === entry);
    const shown = (menu?.data.name_localizations as Partial<Record<Locale, string>> | undefined)?.[
      this.cast.locale
    ];
    this.#command = [shown ?? entry, ''];
    return this.#dispatch(member, {
      kind: 'context',
      commandName: entry,
      targetId: target.id,
      users: { [target.id]: target.name },
    });
  }

  /** Sends the form the exchange's last reply opened, its boxes filled with `fields`. */
  submit(member: Person, on: Exchange, fields: Record<string, string>): Promise<Exchange> {
    const customId = on.replies.at(-1)?.modal?.customId;
    if (!customId) throw new Error('shots: that reply opened no form');
    return this.#dispatch(member, { kind: 'modal', customId, fields });
  }

  /** Picks `value` in the menu of the exchange's last reply. */
  choose(member: Person, on: Exchange, value: string): Promise<Exchange> {
    const customId = on.replies.at(-1)?.select?.customId;
    if (!customId) throw new Error('shots: that reply has no menu');
    return this.#dispatch(member, { kind: 'select', customId, values: [value] });
  }

  /**
   * Presses the button of the exchange's last reply whose id starts with `family`; `refused`
   * when the picture is of the refusal (any other refusal stops the shots).
   */
  press(member: Person, on: Exchange, family: string, refused = false): Promise<Exchange> {
    // A family (`poker.sit`) presses its first button; a whole id (`poker.table:<t>:leave`) that one.
    const button = on.replies
      .at(-1)
      ?.buttons?.find((b) => b.customId === family || b.customId.startsWith(`${family}:`));
    if (!button) throw new Error(`shots: that reply has no ${family} button`);
    return this.#dispatch(member, { kind: 'button', customId: button.customId }, refused);
  }

  async #dispatch(member: Person, what: Partial<Invocation>, refused = false): Promise<Exchange> {
    const n = ++interactions;
    const { guildId, locale } = this.cast;
    const invocation: Invocation = {
      kind: 'command',
      // Snowflake-shaped and unique per run: value-moving buttons derive their operation id from it.
      id: `${RUN}${String(n).padStart(6, '0')}`,
      ...BARE_INVOCATION,
      messageId: what.kind === 'command' ? null : `shots-message-${n}`,
      user: member,
      roleIds: this.roles.of(guildId, member.id),
      guildId,
      locale,
      guildLocale: locale,
      ...what,
    };
    const recorder = new Recorder(`shots-reply-${n}`);
    const result = await this.runtime.dispatch(invocation, recorder);
    const name = `${invocation.commandName} ${invocation.subcommand ?? ''}`.trim() || invocation.customId;
    if (result.outcome === 'failed') throw new Error(`shots: ${name} failed (${result.ref})`);
    // A staging step refused would leave a picture of an error where the shelf should be.
    if (result.outcome === 'refused' && !refused)
      throw new Error(`shots: ${name} was refused (${result.code})`);
    if (result.outcome === 'ok' && refused) throw new Error(`shots: ${name} was not refused`);
    return { replies: recorder.sent, command: this.#command, member };
  }
}

/** Both servers over the same bot: the runtime Discord drives, and members' roles kept in memory. */
export function openServers(deps: BotDeps, roles: ConsoleRoles): Record<Locale, Server> {
  const runtime = new InteractionRuntime(deps, ASSEMBLY);
  return { en: new Server(runtime, roles, CASTS.en), de: new Server(runtime, roles, CASTS.de) };
}

/**
 * A moderator stocks the shelf (the last answer is kept: it is a picture too); the vault is
 * funded, the buyer gets 5,000 Cookies and buys the role, a padlock and two tickets, the short
 * one gets 120.
 */
async function stockShop(deps: BotDeps, server: Server): Promise<Exchange> {
  const { moderator, buyer, short, vipRoleId, ticket, guildId } = server.cast;
  const add = (sub: string, options: Invocation['options'], extra: Partial<Invocation> = {}) =>
    server.command(moderator, ['shop', sub], options, extra);
  await add(
    'add-role',
    { role: vipRoleId, price: 2_000, hours: 24, stock: 10 },
    { roleNames: { [vipRoleId]: 'VIP' } },
  );
  await add('add-item', { effect: 'padlock', price: 300, limit: 3 });
  await add('add-item', { effect: 'streak_shield', price: 450 });
  const added = await add('add-item', {
    effect: 'custom',
    price: 50,
    name: ticket.name,
    description: ticket.description,
    stock: 100,
  });
  await deps.services.vault.fund({
    opId: `shots.vault:${guildId}`,
    adminId: moderator.id,
    amount: 1_000_000,
    reason: 'shots',
  });
  for (const [member, amount] of [
    [buyer, 5_000],
    [short, 120],
  ] as const) {
    await deps.profiles.touch(member);
    await deps.services.cookies.grant({
      opId: `shots.grant:${member.id}`,
      adminId: moderator.id,
      to: member.id,
      amount,
      reason: 'shots',
    });
  }
  const shelf = await deps.services.shop.shelf(guildId);
  const named = (effect: string) => shelf.find((item) => (item.effect ?? 'role') === effect)?._id ?? '';
  for (const [n, item] of [named('role'), named('padlock'), named('custom'), named('custom')].entries()) {
    await deps.services.shop.buy({
      opId: `shots-buy-${guildId}-${n}`,
      guildId,
      userId: buyer.id,
      item,
      roleIds: [],
    });
  }
  return added;
}

/** One picture: a file name, what it shows, and the exchange it draws. */
export interface Scene {
  name: string;
  title: string;
  exchange: Exchange;
  menuOpen?: boolean;
}

/** The shop as a moderator stocks it and as members go through it, in the server's language. */
export async function shopScenes(deps: BotDeps, server: Server): Promise<Scene[]> {
  const { buyer, short, guildId } = server.cast;
  const added = await stockShop(deps, server);
  const shelf = await deps.services.shop.shelf(guildId);
  const itemId = (effect: string) => shelf.find((item) => (item.effect ?? 'role') === effect)?._id ?? '';
  const browse = await server.command(buyer, ['shop', 'browse']);
  const picked = await server.choose(buyer, browse, itemId('padlock'));
  const bought = await server.press(buyer, picked, 'shop.buy');
  const inventory = await server.command(buyer, ['inventory', 'show']);
  const ticket = (await deps.services.shop.owned(buyer.id)).find((unit) => unit.effect === 'custom');
  const unit = await server.choose(buyer, inventory, ticket?.itemId ?? '');
  const shortBrowse = await server.command(short, ['shop', 'browse']);
  const shortPicked = await server.choose(short, shortBrowse, itemId('role'));
  const refused = await server.press(short, shortPicked, 'shop.buy', true);
  return [
    { name: 'shop-add-item', title: 'a moderator adds an item', exchange: added },
    { name: 'shop-browse', title: 'the shelf with its menu', exchange: browse },
    { name: 'shop-browse-menu', title: 'the shelf, menu open', exchange: browse, menuOpen: true },
    { name: 'shop-item', title: 'an item picked, Buy for 300', exchange: picked },
    { name: 'shop-bought', title: 'the purchase’s answer', exchange: bought },
    { name: 'inventory-show', title: 'the inventory with its menu', exchange: inventory },
    { name: 'inventory-menu', title: 'the inventory, menu open', exchange: inventory, menuOpen: true },
    { name: 'inventory-item', title: 'an item picked: Use and Sell', exchange: unit },
    { name: 'shop-refused', title: 'a refusal: not enough Cookies', exchange: refused },
  ];
}

/**
 * The trade's public board, a ticket against 100 Cookies, as it stands once the buyer confirmed.
 * Only where the bot has `/trade`.
 */
export async function tradeScenes(deps: BotDeps, server: Server): Promise<Scene[]> {
  if (!ASSEMBLY.commands.some((c) => c.data.name === 'trade')) return [];
  const { buyer, short } = server.cast;
  await server.command(buyer, ['trade', 'with'], { user: short.id }, { users: { [short.id]: short.name } });
  const ticket = (await deps.services.shop.owned(buyer.id)).find((u) => u.effect === 'custom' && !u.tradeId);
  await server.command(buyer, ['trade', 'add'], { item: ticket?._id ?? '' });
  await server.command(short, ['trade', 'cookies'], { amount: 100 });
  const board = await server.command(buyer, ['trade', 'show']);
  const confirmed = await server.press(buyer, board, 'shop.trade_confirm');
  return [{ name: 'trade-board', title: 'the trade’s board, one side confirmed', exchange: confirmed }];
}
