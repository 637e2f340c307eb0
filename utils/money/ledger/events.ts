import type { Collections } from '../../../src/db/collections.js';
import type { LedgerEventDoc, LegSide, OperationSpec } from './documents.js';
import { fingerprint } from './operationSpec.js';

export interface OutcomeLeg {
  account: string;
  side: LegSide;
  delta: number;
  /** Null when the change's reply was lost or recovery finished it: the balance at that instant is unknown. */
  balanceAfter: number | null;
}

export interface LedgerOutcome {
  opId: string;
  type: OperationSpec['type'];
  currency: OperationSpec['currency'];
  amount: number;
  /** True when this call found the operation already applied and returned its first outcome. */
  replayed: boolean;
  legs: OutcomeLeg[];
}

/** An operation's recorded outcome: its events, the fingerprint of the call and the attempt that applied it. */
export interface Recorded {
  outcome: LedgerOutcome;
  fingerprint: string;
  attempt: string;
}

/** The immutable audit event of one leg; its `_id` (`opId:leg`) is what makes an id apply once. */
export function buildEvent(
  spec: OperationSpec,
  att: string,
  side: LegSide,
  balanceAfter: number | null,
  at: Date,
  recovered: boolean,
  sequence: number | null = null,
): LedgerEventDoc {
  const account = (side === 'debit' ? spec.from : spec.to) as string;
  const counterparty = side === 'debit' ? spec.to : spec.from;
  return {
    _id: `${spec.opId}:${side}`,
    opId: spec.opId,
    attempt: att,
    fingerprint: fingerprint(spec),
    type: spec.type,
    leg: side,
    currency: spec.currency,
    kind: spec.kind,
    account,
    counterparty,
    delta: side === 'debit' ? -spec.amount : spec.amount,
    amount: spec.amount,
    placements: side === 'debit' ? spec.placements : 0,
    balanceAfter,
    sequence,
    source: spec.source,
    beneficiary: spec.to ?? spec.from ?? account,
    reason: spec.reason,
    at,
    recovered,
  };
}

/** The events of one operation, looked up by their `_id`s. */
export function findOperationEvents(cols: Collections, opId: string): Promise<LedgerEventDoc[]> {
  return cols.ledgerEvents.find({ _id: { $in: [`${opId}:debit`, `${opId}:credit`] } }).toArray();
}

export function recordedFrom(events: LedgerEventDoc[]): Recorded | null {
  const first = events[0];
  if (!first) return null;
  return { outcome: outcomeFromEvents(events), fingerprint: first.fingerprint, attempt: first.attempt };
}

export function outcomeFromEvents(events: LedgerEventDoc[]): LedgerOutcome {
  const first = events[0] as LedgerEventDoc;
  const ordered = [...events].sort((a, b) => (a.leg === b.leg ? 0 : a.leg === 'debit' ? -1 : 1));
  return {
    opId: first.opId,
    type: first.type,
    currency: first.currency,
    amount: first.amount,
    replayed: true,
    legs: ordered.map(toOutcomeLeg),
  };
}

export function toOutcomeLeg(event: LedgerEventDoc): OutcomeLeg {
  return { account: event.account, side: event.leg, delta: event.delta, balanceAfter: event.balanceAfter };
}

/** Balance of `account` after the operation, from its outcome (null when it is not known). */
export function balanceAfter(outcome: LedgerOutcome, account: string): number | null {
  return outcome.legs.find((leg) => leg.account === account)?.balanceAfter ?? null;
}
