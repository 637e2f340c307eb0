import type { Collections } from '../../../src/db/collections.js';
import {
  type CurrencyTotals,
  checkBooks,
  checkTouchedBooks,
  explainsSomething,
  type Recomputed,
} from './bookChecks.js';
import { type Books, createBooks } from './books.js';
import type { Currency, LedgerEventDoc } from './documents.js';

export type { CurrencyTotals } from './bookChecks.js';

export interface InvariantReport {
  ok: boolean;
  problems: string[];
  totals: Record<Currency, CurrencyTotals>;
  events: number;
  /** Fences on balance documents (decided attempts; pruned by recovery after their retention). */
  fences: number;
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
 * what it recomputed before, and compares the accounts those events changed one by one, with
 * the accounts holding markers (utils/money/ledger/bookChecks.ts, `checkTouchedBooks`). What the
 * events explain is kept in memory, so a day's check costs that day's events and accounts, not
 * the whole history nor every account (each hold has one, so they grow with it). Any
 * difference makes it read everything again and compare every account one by one before it
 * reports, naming them. An event recorded more than an hour after its time (a recovery
 * rolling an old operation forward, a process whose clock is behind) is in no later window:
 * the events stored outnumber those read by it, and the check reads everything again. A
 * document edited behind the ledger's back that no event touched since is found by a full
 * check only. The economy simulation checks this way every day and once in full at the end.
 */
export class InvariantCheckpoint {
  readonly #books: Books;
  /**
   * What the events explain of each account they leave holding something: an account its
   * events leave empty (a hold settled, a pot paid out) is forgotten as soon as it is, and is
   * explained as empty. So a read of a year's history holds the accounts in use at once, not
   * every account the bot ever had (each hold has one).
   */
  readonly #recomputed = new Map<string, Recomputed>();
  /** Transfers seen with fewer than both legs, or legs that disagree (a complete one is forgotten at once). */
  readonly #transfers = new Map<string, TransferLegs>();
  #flows: Record<Currency, { minted: number; burned: number }> = {
    cookies: { minted: 0, burned: 0 },
    place: { minted: 0, burned: 0 },
  };
  #events = 0;
  /** The accounts (`currency/account`) the events of the current read changed. */
  #touched = new Set<string>();
  /** What the events read say the books hold, by currency (the stored sums when every account agrees). */
  #held: Record<Currency, number> = { cookies: 0, place: 0 };
  /**
   * The events stored minus those read, at the last full read (0 unless the server's count of
   * documents is off). A later check with more unread has missed one: recorded too late.
   */
  #unread = 0;
  #from: Date | null = null;
  /** The events of the last hour before `#from` already read, by id, with their time. */
  #recent = new Map<string, number>();
  /** How many checks had to read every event again (a difference the day's events did not explain). */
  rereads = 0;
  /**
   * The most accounts and unfinished transfers the last read held at once: what it cost in
   * memory, which follows the money in use, not the length of the history.
   */
  peakKept = 0;

  constructor(private readonly cols: Collections) {
    this.#books = createBooks(cols);
  }

  /** The accounts whose expected content the checkpoint keeps: those the events leave holding something. */
  get accountsKept(): number {
    return this.#recomputed.size;
  }

  /**
   * Reads the events before `until` (all of them without it) not read yet, then checks the
   * books. When that finds a difference after an earlier call, the events are read again from
   * the start before anything is reported: an event recorded late with an older time (an
   * attempt a recovery finished after the last call) explains it, or the difference is real.
   */
  async check(until?: Date): Promise<InvariantReport> {
    // Without an end, every event up to now: a full read, which keeps no window to go on from.
    if (until === undefined) this.#reset();
    const incremental = this.#from !== null;
    try {
      let report = await this.#checkFrom(until);
      if (incremental && !report.ok) {
        this.rereads++;
        this.#reset();
        report = await this.#checkFrom(until);
      }
      // A read that found a difference is no checkpoint: its totals hold the difference, and
      // a later check from them would take it for the norm. The next check reads everything.
      if (!report.ok) this.#reset();
      return report;
    } catch (error) {
      // A read that failed halfway folded events whose accounts it never compared.
      this.#reset();
      throw error;
    }
  }

  async #checkFrom(until?: Date): Promise<InvariantReport> {
    const incremental = this.#from !== null;
    this.#touched.clear();
    this.peakKept = 0;
    const at = {
      ...(this.#from ? { $gte: new Date(this.#from.getTime() - LATE_EVENTS_MS) } : {}),
      ...(until ? { $lt: until } : {}),
    };
    for await (const event of this.cols.ledgerEvents.find(Object.keys(at).length > 0 ? { at } : {})) {
      if (this.#recent.has(event._id)) continue;
      // A read from the start compares every account: which ones its events touched is not needed.
      this.#fold(event, incremental);
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
    // After the first read, only the accounts the new events changed are read one by one.
    const counts = incremental
      ? await checkTouchedBooks(this.cols, this.#recomputed, this.#touched, totals, problems)
      : await checkBooks(this.cols, this.#recomputed, totals, problems);
    if (incremental) {
      totals.cookies.balances = this.#held.cookies;
      totals.place.balances = this.#held.place;
    }
    const unread = await this.#countUnread(until);
    if (!incremental) this.#unread = unread;
    else if (unread > this.#unread) {
      problems.push(`${unread - this.#unread} event(s) recorded after the last check with an earlier time`);
    }
    checkSupply(totals, problems);
    const stuck = await this.cols.ledgerStuckOps.find({ resolvedAt: null }).toArray();
    for (const s of stuck) problems.push(`stuck operation ${s.opId} (attempt ${s.attempt}): ${s.problem}`);
    return { ok: problems.length === 0, problems, totals, events: this.#events, fences: counts.fences };
  }

  /**
   * The events stored that no read folded and no later read will: the collection's count (the
   * server's figure, kept without reading) less the events of the last hour before `until` and
   * after it (an index range; the next read takes them) and the events read before that hour.
   * Stored is counted first, so an event inserted meanwhile can only lower the figure: a late
   * one it hides is found by the next check, as it stays unread.
   */
  async #countUnread(until?: Date): Promise<number> {
    const stored = await this.cols.ledgerEvents.estimatedDocumentCount();
    if (until === undefined) return stored - this.#events;
    const windowStart = new Date(until.getTime() - LATE_EVENTS_MS);
    const ahead = await this.cols.ledgerEvents.countDocuments({ at: { $gte: windowStart } });
    return stored - ahead - (this.#events - this.#recent.size);
  }

  #reset(): void {
    this.#recomputed.clear();
    this.#held = { cookies: 0, place: 0 };
    this.#transfers.clear();
    this.#flows.cookies = { minted: 0, burned: 0 };
    this.#flows.place = { minted: 0, burned: 0 };
    this.#events = 0;
    this.#from = null;
    this.#recent.clear();
  }

  #fold(event: LedgerEventDoc, keepTouched: boolean): void {
    this.#events++;
    const key = `${event.currency}/${event.account}`;
    if (keepTouched) this.#touched.add(key);
    const r = this.#recomputed.get(key) ?? { balance: 0, earned: 0, spent: 0, placements: 0 };
    r.balance += event.delta;
    if (event.delta > 0) r.earned += event.delta;
    else r.spent -= event.delta;
    r.placements += event.placements;
    if (explainsSomething(this.#books[event.currency], r)) this.#recomputed.set(key, r);
    else this.#recomputed.delete(key);
    this.#held[event.currency] += event.delta;
    if (event.type === 'credit') this.#flows[event.currency].minted += event.delta;
    if (event.type === 'debit') this.#flows[event.currency].burned -= event.delta;
    if (event.type === 'transfer') {
      const t = this.#transfers.get(event.opId) ?? { debit: 0, credit: 0, legs: 0 };
      t.legs++;
      if (event.leg === 'debit') t.debit -= event.delta;
      else t.credit += event.delta;
      if (t.legs === 2 && t.debit === t.credit) this.#transfers.delete(event.opId);
      else this.#transfers.set(event.opId, t);
    }
    this.peakKept = Math.max(this.peakKept, this.#recomputed.size + this.#transfers.size);
  }
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
