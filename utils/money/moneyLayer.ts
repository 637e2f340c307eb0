import type { Db } from 'mongodb';
import type { Config } from '../../src/config.js';
import type { AppDeps } from '../../src/deps.js';
import type { Feature } from '../../src/features/feature.js';
import type { Scheduler } from '../../src/scheduler/scheduler.js';
import { CookieEconomy } from './cookieEconomy.js';
import { HoldStore } from './holds/holdStore.js';
import { Holds, SWEEP_EVERY_MS, SWEEP_GRACE_MS } from './holds/holds.js';
import { holdProblems } from './holds/invariants.js';
import { ensureLedgerIndexes, type LedgerCollections, ledgerCollections } from './ledger/documents.js';
import { LEDGER_ERROR_MESSAGES } from './ledger/errors.js';
import { Ledger, type LedgerDeps } from './ledger/ledger.js';
import { LEDGER_MESSAGES } from './ledger/messages.js';
import { type RecoveryReport, recoverLedger } from './ledger/recovery.js';
import { PlaceEconomy } from './placeEconomy.js';

/** The money layer's collections (the ledger's books and events), beside the kernel's. */
export function moneyCollections(db: Db): LedgerCollections {
  return ledgerCollections(db);
}

/** The ledger's indexes, which every process that opens the database needs (idempotent). */
export function ensureMoneyIndexes(db: Db): Promise<void> {
  return ensureLedgerIndexes(db);
}

/** The indexes of money in play (holds), which a process that runs the bot needs (idempotent). */
export function ensureHoldIndexes(db: Db): Promise<void> {
  return Holds.ensureIndexes(db);
}

/**
 * The ledger, the only writer of balances, over the app's collections: what every process
 * that opens the database gets (the bot, the tools, the recovery).
 */
export function openLedger(kernel: Omit<LedgerDeps, 'config'> & { config: Config }): Ledger {
  const { config, ...rest } = kernel;
  return new Ledger({ ...rest, config: config.ledger });
}

/** The money layer of a process that runs the bot: the app's ledger, money in play, the currencies. */
export interface MoneyLayerParts {
  ledger: Ledger;
  /** Every stake, buy-in, pot share and promised reward; its timers go through `scheduler`. */
  holds: Holds;
  cookieEconomy: CookieEconomy;
  placeEconomy: PlaceEconomy;
}

/**
 * Builds the money layer over an opened app. The holds need the scheduler, which only a
 * process that runs timers builds, so they come here rather than with the ledger.
 */
export function createMoneyLayer(
  app: Pick<AppDeps, 'ledger' | 'db' | 'clock' | 'log'>,
  scheduler: Scheduler,
): MoneyLayerParts {
  const { ledger, db, clock, log } = app;
  return {
    ledger,
    holds: new Holds({ ledger, store: new HoldStore(db), scheduler, clock, log }),
    cookieEconomy: new CookieEconomy(ledger),
    placeEconomy: new PlaceEconomy(ledger),
  };
}

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

/** The recovery pass run at start-up and by `npm run ledger:recover`. */
export async function runLedgerRecovery(
  deps: AppDeps,
  graceMs = deps.config.ledger.recoveryGraceMs,
  options: { tidy?: boolean } = {},
): Promise<RecoveryReport> {
  await deps.ledger.decideAbandoned();
  const report = await recoverLedger(
    { cols: deps.cols, clock: deps.clock, log: deps.log },
    { graceMs, fenceRetentionMs: deps.config.ledger.fenceRetentionMs, ...options },
  );
  const level = report.stuck.length + report.failed.length > 0 ? 'error' : 'info';
  const busy = report.examined + report.fencesPruned > 0;
  if (busy || level === 'error') {
    deps.log[level]({ event: 'ledger.recovery.report', ...report }, 'ledger recovery pass finished');
  }
  return report;
}
