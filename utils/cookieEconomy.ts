import type { Collections } from '../src/db/collections.js';
import { AppError, invalidInput } from './errors.js';
import type { Ledger, LedgerOutcome } from './ledger/ledger.js';

/**
 * The shared Cookie economy: every command and game that moves Cookies calls this
 * module, which moves them through the ledger (the only writer of balances).
 */
export interface CookieEconomyDeps {
  ledger: Ledger;
  cols: Collections;
}

export interface GiveRequest {
  opId: string;
  from: string;
  to: string;
  amount: number;
  maxAmount: number;
}

/** Checks a give before asking the member to confirm it (the ledger re-checks on confirm). */
export async function previewGive(
  deps: CookieEconomyDeps,
  request: Omit<GiveRequest, 'opId'>,
): Promise<{ balance: number }> {
  assertGiveAllowed(deps, request);
  const balance = await deps.ledger.balanceOf('cookies', request.from);
  if (balance < request.amount) {
    throw new AppError('INSUFFICIENT_COOKIES', `${request.from} has ${balance}, needs ${request.amount}`, {
      balance,
      needed: request.amount,
      currency: 'cookies',
    });
  }
  return { balance };
}

export async function giveCookies(deps: CookieEconomyDeps, request: GiveRequest): Promise<LedgerOutcome> {
  assertGiveAllowed(deps, request);
  return deps.ledger.transfer({
    opId: request.opId,
    currency: 'cookies',
    from: request.from,
    to: request.to,
    amount: request.amount,
    kind: 'cookies.give',
    source: request.from,
  });
}

function assertGiveAllowed(deps: CookieEconomyDeps, request: Omit<GiveRequest, 'opId'>): void {
  if (request.from === request.to) throw invalidInput('you cannot give Cookies to yourself');
  if (request.to === deps.ledger.houseAccountId) throw invalidInput('the house vault does not take gifts');
  if (request.amount > request.maxAmount) {
    throw invalidInput(`at most ${request.maxAmount.toLocaleString('en-US')} Cookies can be given at once`, {
      max: request.maxAmount,
    });
  }
}

/** Cookies created by an admin (event prizes); audited with the admin as the source. */
export function grantCookies(
  deps: CookieEconomyDeps,
  grant: { opId: string; adminId: string; to: string; amount: number; reason: string },
): Promise<LedgerOutcome> {
  return deps.ledger.credit({
    opId: grant.opId,
    currency: 'cookies',
    account: grant.to,
    amount: grant.amount,
    kind: 'cookies.admin_grant',
    source: grant.adminId,
    reason: grant.reason,
  });
}

export interface LeaderboardRow {
  rank: number;
  userId: string;
  cookies: number;
}

/** The richest members (the house vault is not a member). */
export async function cookieLeaderboard(deps: CookieEconomyDeps, size: number): Promise<LeaderboardRow[]> {
  const docs = await deps.cols.cookies
    .find({ _id: { $ne: deps.ledger.houseAccountId }, cookies: { $gt: 0 } }, { projection: { cookies: 1 } })
    .sort({ cookies: -1, _id: 1 })
    .limit(size)
    .toArray();
  return docs.map((doc, i) => ({ rank: i + 1, userId: doc._id, cookies: doc.cookies }));
}
