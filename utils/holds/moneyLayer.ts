import type { Feature } from '../../src/features/feature.js';
import { LEDGER_ERROR_MESSAGES } from '../ledger/errors.js';
import { LEDGER_MESSAGES } from '../ledger/messages.js';
import { holdProblems } from './invariants.js';

/**
 * How long past its deadline a hold may still be open before the checker reports it: its timer
 * retries with back-off while a movement of it is in flight (the scheduler's retries, minutes).
 */
const HOLD_GRACE_MS = 600_000;

/**
 * The money layer as the assembly sees it: the ledger's texts (namespace `ledger`) and error
 * codes, and the checks of money in play (every hold's account and deadline), run before each
 * feature's own books. The registry puts it first; it has no commands of its own.
 */
export const moneyLayer: Feature = {
  name: 'ledger',
  messages: LEDGER_MESSAGES,
  errors: LEDGER_ERROR_MESSAGES,
  checkInvariants: (db, config, ledger, now, since) =>
    holdProblems(db, ledger, now, config.ledger.recoveryGraceMs + HOLD_GRACE_MS, since),
};
