import type { Ledger, LedgerOutcome } from './ledger/ledger.js';

declare module '../../src/deps.js' {
  interface MoneyLayer {
    /** Every Place point a feature moves, through the ledger. */
    placeEconomy: PlaceEconomy;
  }
}

/** Every kind of Place-point movement, named once (audit events carry it). */
export const PLACE_KINDS = {
  pixel: 'place.pixel',
  grant: 'place.admin_grant',
  clawback: 'place.admin_clawback',
  refund: 'place.refund',
  progress: 'place.progress',
  draw: 'place.draw',
  time: 'place.time',
  forfeit: 'place.forfeit',
} as const;

/**
 * The one way features move Place points (milli-points) through the ledger, as
 * `utils/money/cookieEconomy.ts` is for Cookies: placements debit with a placement count, grants
 * credit with the granter as source. Each call carries an operation id.
 */
export class PlaceEconomy {
  constructor(private readonly ledger: Ledger) {}

  /** A wallet as stored: balance, lifetime earned and spent (milli-points), placements. */
  wallet(identity: string) {
    return this.ledger.queries.placeWallet(identity);
  }

  /** The members with the most placements, or the most points earned, most first. */
  top(field: 'placements' | 'earned', limit: number) {
    return this.ledger.queries.topPlaceWallets(field, limit);
  }

  balance(identity: string): Promise<number> {
    return this.ledger.balanceOf('place', identity);
  }

  /** Whether the payment `opId` went through (its ledger events are written). */
  paidForPixel(opId: string): Promise<boolean> {
    return this.ledger.recorded(opId);
  }

  /** One placement: `cost` milli-points and one placement on the wallet. */
  payForPixel(
    identity: string,
    move: { opId: string; cost: number; reason: string },
  ): Promise<LedgerOutcome> {
    return this.ledger.debit({
      opId: move.opId,
      currency: 'place',
      account: identity,
      amount: move.cost,
      placements: 1,
      kind: PLACE_KINDS.pixel,
      source: identity,
      reason: move.reason,
    });
  }

  /**
   * A hunt reward into the owner's wallet, with the identity that earned it (a member, or one
   * of their workers) as the source in the audit.
   */
  reward(
    owner: string,
    move: {
      opId: string;
      amount: number;
      kind: 'place.progress' | 'place.draw' | 'place.time';
      source: string;
      reason: string;
    },
  ): Promise<LedgerOutcome> {
    return this.ledger.credit({ ...move, currency: 'place', account: owner });
  }

  /** Points given back (a rollback chosen with a refund). */
  refund(
    identity: string,
    move: { opId: string; amount: number; source: string; reason: string },
  ): Promise<LedgerOutcome> {
    return this.ledger.credit({ ...move, currency: 'place', account: identity, kind: PLACE_KINDS.refund });
  }

  /**
   * A member forgotten on request: their points are burned, audited as `place.forfeit` (points
   * are not anyone's to keep), and their wallet is closed for good; its counts of what was
   * earned, spent and painted stay with its pseudonym.
   */
  forfeit(identity: string, opId: string, source: string): Promise<{ moved: number }> {
    return this.ledger.drainAndClose('place', identity, (amount, round) =>
      this.ledger.debit({
        opId: `${opId}:${round}:${amount}`,
        currency: 'place',
        account: identity,
        amount,
        kind: PLACE_KINDS.forfeit,
        source,
        reason: '',
      }),
    );
  }

  /**
   * The points that left the wallet without painting: expired when its member was forgotten,
   * or taken back by a moderator (none for most wallets).
   */
  async spentOnNothing(identity: string): Promise<number> {
    const totals = await this.ledger.queries.totalsByKind('place', identity);
    return (totals.get(PLACE_KINDS.forfeit)?.out ?? 0) + (totals.get(PLACE_KINDS.clawback)?.out ?? 0);
  }

  /** Points a moderator takes back, burned: at most the wallet's balance (a placement's hold is not in it). */
  clawBack(
    identity: string,
    move: { opId: string; amount: number; source: string; reason: string },
  ): Promise<{ taken: number; balance: number }> {
    return this.ledger.debitUpTo({
      ...move,
      currency: 'place',
      account: identity,
      kind: PLACE_KINDS.clawback,
    });
  }

  /** The points given back to a member by rollbacks chosen with a refund. */
  async refunded(identity: string): Promise<number> {
    return (await this.ledger.queries.totalsByKind('place', identity)).get(PLACE_KINDS.refund)?.in ?? 0;
  }

  /** Points created by a moderator (or, later, the hunt). */
  grant(
    identity: string,
    move: { opId: string; amount: number; source: string; reason: string },
  ): Promise<LedgerOutcome> {
    return this.ledger.credit({ ...move, currency: 'place', account: identity, kind: PLACE_KINDS.grant });
  }
}
