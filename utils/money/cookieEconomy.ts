import { isAppError } from '../../src/errors.js';
import { type KindTotal, type Ledger, type LedgerOutcome, POT_PREFIX } from './ledger/ledger.js';

declare module '../../src/deps.js' {
  interface MoneyLayer {
    /** Every Cookie a feature moves, through the ledger. */
    cookieEconomy: CookieEconomy;
  }
}

/**
 * Every kind of Cookie movement, named once. The ledger writes the kind on each audit event,
 * so `/cookies history`, `/vault show` and the profile card read them back by these names.
 *
 * The kinds are the money layer's chart of accounts, not one feature's: they are read across
 * features (the profile card counts heists, `/vault show` groups every feature's flows, the
 * simulation charts them all), so they stay one list here rather than each feature's own, and
 * a feature that adds one adds its label in `cookies:kinds` (test/i18n/usedKeys.test.ts fails
 * on a kind without a label in either language).
 */
export const COOKIE_KINDS = {
  grant: 'cookies.admin_grant',
  clawback: 'cookies.admin_clawback',
  vaultFund: 'vault.fund',
  give: 'cookies.give',
  collect: 'cookies.collect',
  stealLoot: 'steal.loot',
  stealFine: 'steal.fine',
  gameStake: 'games.stake',
  gameHold: 'games.hold',
  gamePayout: 'games.payout',
  gameReturn: 'games.return',
  gameRefund: 'games.refund',
  heistStake: 'heist.stake',
  heistLoot: 'heist.loot',
  heistPayout: 'heist.payout',
  heistReturn: 'heist.return',
  pokerBuyIn: 'poker.buyin',
  pokerCashOut: 'poker.cashout',
  pokerRake: 'poker.rake',
  pokerPrize: 'poker.prize',
  bakeryShare: 'cookies.bakery_share',
  shopPurchase: 'shop.purchase',
  shopRefund: 'shop.refund',
  shopSellBack: 'shop.sell_back',
  roleIncome: 'shop.role_income',
  tradeEscrow: 'trade.escrow',
  tradeSwap: 'trade.swap',
  tradeReturn: 'trade.return',
  forfeit: 'privacy.forfeit',
} as const;

export type CookieKind = (typeof COOKIE_KINDS)[keyof typeof COOKIE_KINDS];

/** What moves Cookies on behalf of a member or the house: an operation id and who caused it. */
interface Move {
  opId: string;
  amount: number;
  kind: CookieKind;
  /** The identity that caused the change (a member, an admin, `system`). */
  source: string;
  reason?: string;
}

/**
 * The one source of truth for Cookies (ECONOMY.md, "The source of truth"): every feature that moves Cookies —
 * give, grants, collect, steal, house games, the vault heist, later poker — calls this, and
 * this calls the ledger (`utils/money/ledger/`), the only writer of balances. Each call carries an
 * operation id derived from the member's action, so a retry never moves Cookies twice.
 *
 * Money in play sits in a *pot* (an account `pot:<kind>:<id>` of the same collection): a
 * round takes the member's stake and the house's largest possible loss into its pot before
 * the outcome is drawn, and pays both out of it when it settles. A round the vault cannot
 * cover is therefore refused before any member's Cookies move, and a settled round cannot
 * fail for lack of Cookies (ECONOMY.md, "The vault and its liquidity").
 */
export class CookieEconomy {
  constructor(private readonly ledger: Ledger) {}

  get house(): string {
    return this.ledger.houseAccountId;
  }

  balance(account: string): Promise<number> {
    return this.ledger.balanceOf('cookies', account);
  }

  /** New Cookies: collect rewards, admin grants, funding the vault. */
  mint(to: string, move: Move): Promise<LedgerOutcome> {
    return this.ledger.credit({ ...move, currency: 'cookies', account: to });
  }

  /**
   * Cookies a moderator takes back, burned as grants are minted (ECONOMY.md, "Moderators' grants
   * and clawbacks"): at most the member's balance, whose Cookies in play sit in holds and are not
   * taken.
   */
  clawBack(member: string, move: Omit<Move, 'kind'>): Promise<{ taken: number; balance: number }> {
    return this.ledger.debitUpTo({
      ...move,
      currency: 'cookies',
      account: member,
      kind: COOKIE_KINDS.clawback,
    });
  }

  /** From one account to another (members, the house, pots). */
  transfer(from: string, to: string, move: Move): Promise<LedgerOutcome> {
    return this.ledger.transfer({ ...move, currency: 'cookies', from, to });
  }

  /** Into the house vault: fines, lost stakes. */
  toHouse(from: string, move: Move): Promise<LedgerOutcome> {
    return this.ledger.payToHouse({ ...move, from });
  }

  /** Out of the house vault, which keeps its minimum reserve (HOUSE_VAULT_INSUFFICIENT otherwise). */
  fromHouse(to: string, move: Move): Promise<LedgerOutcome> {
    return this.ledger.payFromHouse({ ...move, to });
  }

  /**
   * A member forgotten on request (utils/privacy/): their Cookies go to the vault, audited as
   * `privacy.forfeit`, and their account is closed for good, so nothing lands on it while their
   * records are pseudonymised. `opId` names the request; each round adds its number and the
   * amount it moves, so a run resumed after a crash never reuses an id for another amount.
   */
  forfeitToHouse(member: string, opId: string, source: string): Promise<{ moved: number }> {
    return this.ledger.drainAndClose('cookies', member, (amount, round) =>
      this.toHouse(member, {
        opId: `${opId}:${round}:${amount}`,
        amount,
        kind: COOKIE_KINDS.forfeit,
        source,
      }),
    );
  }

  /** The account that holds the Cookies of one round or heist while it is in play. */
  pot(kind: 'game' | 'heist' | 'poker', id: string): string {
    return `${POT_PREFIX}${kind}:${id}`;
  }

  /** Like `fromHouse`, but a vault below its reserve answers `false` instead of throwing. */
  async tryFromHouse(to: string, move: Move): Promise<boolean> {
    try {
      await this.fromHouse(to, move);
      return true;
    } catch (error) {
      if (isAppError(error, 'HOUSE_VAULT_INSUFFICIENT')) return false;
      throw error;
    }
  }

  /** The vault, a table's pot or a hold: not a member (leaderboards and targets leave them out). */
  isSystemAccount(account: string): boolean {
    return this.ledger.isSystemAccount(account);
  }

  /** What moved between `since` and `until` by kind, for the members and for the vault. */
  flows(
    since: Date,
    until: Date,
  ): Promise<{ members: Map<string, KindTotal>; house: Map<string, KindTotal> }> {
    return this.ledger.queries.flowsByKind('cookies', since, until);
  }

  /** Every member's Cookies together (the vault, tables' pots and holds left out). */
  async supply(): Promise<number> {
    const balances = await this.ledger.queries.memberBalances('cookies');
    return balances.reduce((sum, balance) => sum + balance, 0);
  }

  /** The members with a change of `kind` between `since` and `until`. */
  membersWith(kind: CookieKind, since: Date, until: Date): Promise<string[]> {
    return this.ledger.queries.accountsWithKind('cookies', kind, since, until);
  }

  /** One member's (or the vault's) changes by kind, for profiles and `/vault show`. */
  totalsByKind(account: string, since?: Date): Promise<Map<string, KindTotal>> {
    return this.ledger.queries.totalsByKind('cookies', account, since);
  }
}
