import type { Feature } from '../../src/features/feature.js';
import { SWEEP_EVERY_MS, SWEEP_GRACE_MS } from './holds/holds.js';
import { holdProblems } from './holds/invariants.js';
import { LEDGER_ERROR_MESSAGES } from './ledger/errors.js';
import { LEDGER_MESSAGES } from './ledger/messages.js';

/**
 * How long past its deadline a hold may still be open before the checker reports it: the sweep
 * ends it `SWEEP_GRACE_MS` past its deadline, at its next pass; a movement still in flight is
 * first finished by the ledger's recovery (its grace).
 */
const HOLD_GRACE_MS = SWEEP_GRACE_MS + SWEEP_EVERY_MS;

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
  // Ended holds a week old, and their empty accounts.
  prune: (deps, now) => deps.holds.prune(now),
};
