import { createHash } from 'node:crypto';
import { AppError } from '../../../src/errors.js';
import type { Currency } from '../ledger/documents.js';
import { HOLD_PREFIX } from '../ledger/ledger.js';
import type { HoldDoc, HoldOwner, Posting } from './holdStore.js';

/** The account a hold's value sits in: `hold:<id>`, or a digest of a long id (accounts are ≤ 64 characters). */
export function holdAccount(id: string): string {
  const plain = `${HOLD_PREFIX}${id}`;
  return plain.length <= 64 ? plain : `${HOLD_PREFIX}${createHash('sha256').update(id).digest('base64url')}`;
}

/** The postings as they will run: positive amounts, within the hold, the rest returned if asked. */
export function planPostings(hold: HoldDoc, postings: Posting[], rest: 'return' | undefined): Posting[] {
  const plan = postings.filter((p) => p.amount > 0);
  const total = plan.reduce((sum, p) => sum + p.amount, 0);
  if (!plan.every((p) => Number.isSafeInteger(p.amount)) || total > hold.amount) {
    throw new Error(`hold ${hold._id}: postings of ${total} exceed the ${hold.amount} it holds`);
  }
  const left = hold.amount - total;
  if (left > 0 && hold.from !== null) {
    if (rest !== 'return') throw new Error(`hold ${hold._id}: ${left} would be left in the hold`);
    plan.push({ to: hold.from, amount: left, kind: hold.returnKind ?? hold.kind });
  }
  return plan;
}

export function stillOpen(hold: HoldDoc): AppError {
  return new AppError(
    'OPERATION_IN_PROGRESS',
    `hold ${hold._id} has a movement in flight; try again shortly`,
    {
      opId: hold._id,
    },
  );
}

export interface ReserveRequest {
  /** Unique forever, derived from the owner's own id (`game:<round>:stake`): a retry reserves once. */
  id: string;
  currency: Currency;
  /** The account the value comes from; null for a promise to mint (a reward or refund owed). */
  from: string | null;
  amount: number;
  kind: string;
  source: string;
  reason?: string;
  owner: HoldOwner;
  /** How long the hold may stay open before its timer ends it. */
  ttlMs: number;
  /** The kind a void (or a post's rest sent back) carries; the reserve's kind by default. */
  returnKind?: string;
  /**
   * The value is owed already (a cash-out: the chips left the table): a reserve whose outcome
   * is unknown is repeated until it lands, never called off.
   */
  owed?: boolean;
}

/**
 * What an owner's rules decide for a hold of theirs that passed its deadline still open:
 * return it, post it (where to), or `handled` (the owner ended it itself, e.g. a poker table
 * finishing its own moves).
 */
export type ExpiryDecision = 'void' | 'handled' | { post: Posting[] };

export interface HoldOwnerRules {
  onExpiry(hold: HoldDoc): Promise<ExpiryDecision>;
}
