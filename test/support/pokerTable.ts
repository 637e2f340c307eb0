import type { Db } from 'mongodb';
import type { BotDeps } from '../../src/interactions/types.js';
import { CookieEconomy } from '../../utils/money/cookieEconomy.js';
import { HandSeedStore } from '../../utils/poker/handSeedStore.js';
import { HandStore } from '../../utils/poker/handStore.js';
import { PokerService, type PokerStep } from '../../utils/poker/pokerService.js';
import { TableStore } from '../../utils/poker/tableStore.js';

/**
 * A poker service of its own on `db`, as another process (or one that dies: `hooks` names the
 * table's steps of a Cookie operation) would build it.
 */
export function pokerServiceOf(
  deps: BotDeps,
  db: Db,
  hooks?: { step(step: PokerStep, op: string): void },
): PokerService {
  return new PokerService({
    ...deps,
    economy: new CookieEconomy(deps.ledger),
    tables: new TableStore(db),
    hands: new HandStore(db),
    seeds: new HandSeedStore(db, () => deps.rng.secret(32)),
    ...(hooks ? { hooks } : {}),
  });
}

/**
 * A table of the poker tests: members granted Cookies, the table opened by its host (no hand
 * deals itself: the start timer is an hour away), and the given buy-ins seated in order.
 * `board`: the channel and message of its board, as a first press on it would tell them.
 */
export async function openTable(
  deps: BotDeps,
  table: {
    id: string;
    host: string;
    members: string[];
    grant: number;
    seats: [string, number][];
    board?: { channelId: string; messageId?: string; locale?: string };
  },
): Promise<void> {
  await deps.runtimeConfig.set('poker.start_delay_s', '3600', 'admin');
  await grantCookies(deps, table.members, table.grant);
  const created = await deps.services.poker.create({
    tableId: table.id,
    hostId: table.host,
    smallBlind: 5,
    maxBuyIn: 500,
    channelId: table.board?.channelId ?? null,
    locale: table.board?.locale ?? 'en',
  });
  if (table.board?.messageId) await deps.services.poker.rememberMessage(created, table.board.messageId);
  for (const [member, buyIn] of table.seats) await deps.services.poker.join(table.id, member, buyIn);
}

/** Each member granted `amount` Cookies by the admin, once (the grant's id names the member). */
export async function grantCookies(deps: BotDeps, members: readonly string[], amount: number): Promise<void> {
  for (const m of members)
    await deps.services.cookies.grant({ opId: `g-${m}`, adminId: 'admin', to: m, amount, reason: '' });
}
