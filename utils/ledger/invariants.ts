import type { Collections } from '../../src/db/collections.js';
import { createBooks } from './books.js';
import type { Currency, LedgerEventDoc } from './documents.js';

export interface CurrencyTotals {
  /** Sum of all stored balances. */
  balances: number;
  /** Value created by credits without a source (rewards, grants). */
  minted: number;
  /** Value destroyed by debits without a destination (purchases, fees). */
  burned: number;
  accounts: number;
}

export interface InvariantReport {
  ok: boolean;
  problems: string[];
  totals: Record<Currency, CurrencyTotals>;
  events: number;
  /** Fences on balance documents (decided attempts; pruned by recovery after their retention). */
  fences: number;
}

interface Recomputed {
  balance: number;
  earned: number;
  spent: number;
  placements: number;
}

/**
 * Recomputes every wallet from the audit events and the total supply (minted minus
 * burned), and compares both with the stored balances. Every difference is listed.
 */
export function checkInvariants(cols: Collections): Promise<InvariantReport> {
  return new InvariantCheckpoint(cols).check();
}

interface TransferLegs {
  debit: number;
  credit: number;
  legs: number;
}

/**
 * Events recorded this long after their time (an operation in flight while a check read) are
 * still read by the next check, not found by reading everything again.
 */
const LATE_EVENTS_MS = 3_600_000;

/**
 * The same check, from a checkpoint: each call reads only the events recorded since the last
 * one (by their time, from an hour before it, skipping those it read already), adds them to
 * what it recomputed before, and compares the result with every balance as `checkInvariants`
 * does. What the events explain is kept in memory, so a day's check costs that day's events
 * and the accounts, not the whole history. An event recorded more than an hour after its
 * time (a recovery rolling an old operation forward) is in no later window: the balance it
 * changed then differs, and the check reads everything again before it reports. The economy
 * simulation checks this way every day and once in full at the end.
 */
export class InvariantCheckpoint {
  readonly #recomputed = new Map<string, Recomputed>();
  /** Transfers seen with fewer than both legs, or legs that disagree (complete ones are forgotten). */
  readonly #transfers = new Map<string, TransferLegs>();
  #flows: Record<Currency, { minted: number; burned: number }> = {
    cookies: { minted: 0, burned: 0 },
    place: { minted: 0, burned: 0 },
  };
  #events = 0;
  #from: Date | null = null;
  /** The events of the last hour before `#from` already read, by id, with their time. */
  #recent = new Map<string, number>();
  /** How many checks had to read every event again (a difference the day's events did not explain). */
  rereads = 0;

  constructor(private readonly cols: Collections) {}

  /**
   * Reads the events before `until` (all of them without it) not read yet, then checks the
   * books. When that finds a difference after an earlier call, the events are read again from
   * the start before anything is reported: an event recorded late with an older time (an
   * attempt a recovery finished after the last call) explains it, or the difference is real.
   */
  async check(until?: Date): Promise<InvariantReport> {
    const incremental = this.#from !== null;
    const report = await this.#checkFrom(until);
    if (!incremental || report.ok) return report;
    this.rereads++;
    this.#reset();
    return this.#checkFrom(until);
  }

  async #checkFrom(until?: Date): Promise<InvariantReport> {
    const at = {
      ...(this.#from ? { $gte: new Date(this.#from.getTime() - LATE_EVENTS_MS) } : {}),
      ...(until ? { $lt: until } : {}),
    };
    for await (const event of this.cols.ledgerEvents.find(Object.keys(at).length > 0 ? { at } : {})) {
      if (this.#recent.has(event._id)) continue;
      this.#fold(event);
      if (until && event.at.getTime() >= until.getTime() - LATE_EVENTS_MS) {
        this.#recent.set(event._id, event.at.getTime());
      }
    }
    if (until) {
      this.#from = until;
      for (const [id, time] of this.#recent) {
        if (time < until.getTime() - LATE_EVENTS_MS) this.#recent.delete(id);
      }
    }
    const problems: string[] = [];
    for (const [opId, t] of this.#transfers) {
      if (t.legs !== 2 || t.debit !== t.credit) {
        problems.push(`transfer ${opId}: ${t.legs} event(s), debited ${t.debit}, credited ${t.credit}`);
      } else this.#transfers.delete(opId);
    }
    const totals: Record<Currency, CurrencyTotals> = {
      cookies: { balances: 0, ...this.#flows.cookies, accounts: 0 },
      place: { balances: 0, ...this.#flows.place, accounts: 0 },
    };
    const fenceCount = await checkBooks(this.cols, this.#recomputed, totals, problems);
    checkSupply(totals, problems);
    const stuck = await this.cols.ledgerStuckOps.find({ resolvedAt: null }).toArray();
    for (const s of stuck) problems.push(`stuck operation ${s.opId} (attempt ${s.attempt}): ${s.problem}`);
    return { ok: problems.length === 0, problems, totals, events: this.#events, fences: fenceCount };
  }

  #reset(): void {
    this.#recomputed.clear();
    this.#transfers.clear();
    this.#flows.cookies = { minted: 0, burned: 0 };
    this.#flows.place = { minted: 0, burned: 0 };
    this.#events = 0;
    this.#from = null;
    this.#recent.clear();
  }

  #fold(event: LedgerEventDoc): void {
    this.#events++;
    const key = `${event.currency}/${event.account}`;
    const r = this.#recomputed.get(key) ?? { balance: 0, earned: 0, spent: 0, placements: 0 };
    r.balance += event.delta;
    if (event.delta > 0) r.earned += event.delta;
    else r.spent -= event.delta;
    r.placements += event.placements;
    this.#recomputed.set(key, r);
    if (event.type === 'credit') this.#flows[event.currency].minted += event.delta;
    if (event.type === 'debit') this.#flows[event.currency].burned -= event.delta;
    if (event.type === 'transfer') {
      const t = this.#transfers.get(event.opId) ?? { debit: 0, credit: 0, legs: 0 };
      t.legs++;
      if (event.leg === 'debit') t.debit -= event.delta;
      else t.credit += event.delta;
      this.#transfers.set(event.opId, t);
    }
  }
}

/** Compares every balance document with the events; adds up the balances. Returns the fences counted. */
async function checkBooks(
  cols: Collections,
  recomputed: Map<string, Recomputed>,
  totals: Record<Currency, CurrencyTotals>,
  problems: string[],
): Promise<number> {
  let fenceCount = 0;
  const books = createBooks(cols);
  for (const book of Object.values(books)) {
    const seen = new Set<string>();
    for await (const raw of book.collection.find({})) {
      const doc = raw as unknown as Record<string, unknown> & {
        _id: string;
        pendingOps?: unknown[];
        fences?: unknown[];
      };
      fenceCount += doc.fences?.length ?? 0;
      const key = `${book.currency}/${doc._id}`;
      seen.add(key);
      const stored = numberField(doc, book.balanceField);
      const expected = recomputed.get(key) ?? { balance: 0, earned: 0, spent: 0, placements: 0 };
      totals[book.currency].balances += stored;
      totals[book.currency].accounts++;
      if (!Number.isSafeInteger(stored)) problems.push(`${key}: balance ${stored} is not a whole number`);
      if (stored < 0) problems.push(`${key}: negative balance ${stored}`);
      if (stored !== expected.balance) {
        problems.push(`${key}: stored balance ${stored}, events explain ${expected.balance}`);
      }
      if (book.currency === 'place') {
        for (const field of ['earned', 'spent', 'placements'] as const) {
          const value = numberField(doc, field);
          if (value !== expected[field])
            problems.push(`${key}: stored ${field} ${value}, events explain ${expected[field]}`);
        }
      }
      if (doc.pendingOps !== undefined) {
        problems.push(`${key}: ${doc.pendingOps.length} operation marker(s) left (pendingOps present)`);
      }
    }
    for (const [key, r] of recomputed) {
      if (key.startsWith(`${book.currency}/`) && !seen.has(key) && r.balance !== 0) {
        problems.push(`${key}: events explain ${r.balance} but no balance document exists`);
      }
    }
  }
  return fenceCount;
}

function checkSupply(totals: Record<Currency, CurrencyTotals>, problems: string[]): void {
  for (const currency of ['cookies', 'place'] as const) {
    const t = totals[currency];
    if (t.balances !== t.minted - t.burned) {
      problems.push(
        `${currency}: balances total ${t.balances}, minted ${t.minted} - burned ${t.burned} = ${t.minted - t.burned}`,
      );
    }
  }
}

function numberField(doc: Record<string, unknown>, field: string): number {
  const value = doc[field];
  return typeof value === 'number' ? value : 0;
}
