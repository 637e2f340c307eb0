import { createHash } from 'node:crypto';
import { AppError } from '../../src/errors.js';
import { HOLD_PREFIX } from '../ledger/ledger.js';
import type { HoldDoc, Posting } from './holdStore.js';

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
