import type { AppliedLeg, Attempt, AttemptContext, GroupedDebit, LegResult } from './attempt.js';
import { type BalanceDoc, type Book, CHANGES_FIELD, readBalance, readChanges } from './books.js';
import type { LegSide, PendingOp } from './documents.js';
import { accountClosed, balanceLimit, inProgress, insufficient, reused, unavailable } from './errors.js';
import { applyDebits, applyLeg, decideLeg, type LegDecision } from './legs.js';
import { encodeSpec, fingerprint } from './operationSpec.js';
import { TurnBatcher } from './turnBatcher.js';

const MAX_RACE_RETRIES = 8;

/**
 * Applies the legs of an attempt, one balance update each (legs.ts), and says what became of
 * each: applied, recorded by another attempt, busy, fenced or refused. Debits reaching one
 * document in the same turn of the event loop go out as one update.
 */
export class LegWriter {
  readonly #debits = new TurnBatcher<GroupedDebit, BalanceDoc | null>((items) => this.#serveDebits(items));

  constructor(private readonly ctx: AttemptContext) {}

  /**
   * Applies one leg. A request without a reply is decided (applied, or fenced so it can
   * never apply); a miss is explained from the stored state. Throws OPERATION_IN_PROGRESS
   * only when the database cannot even be asked: the markers then wait for recovery.
   */
  async apply(a: Attempt, side: LegSide): Promise<LegResult> {
    const book = this.ctx.books[a.spec.currency];
    const account = (side === 'debit' ? a.spec.from : a.spec.to) as string;
    const marker: PendingOp = {
      op: a.spec.opId,
      att: a.att,
      leg: side,
      at: this.ctx.deps.clock.now(),
      spec: encodeSpec(a.spec),
    };
    for (let i = 0; i < MAX_RACE_RETRIES; i++) {
      let doc: BalanceDoc | null;
      try {
        doc =
          side === 'debit'
            ? await this.#debits.call({ book, account, spec: a.spec, marker })
            : await this.ctx.patience.io(() => applyLeg(book, account, side, a.spec, marker));
      } catch (error) {
        this.ctx.deps.log.warn(
          { event: 'ledger.request.unanswered', opId: a.spec.opId, attempt: a.att, leg: side, err: error },
          'a balance update got no reply; settling it',
        );
        return this.#unanswered(a, book, account, side);
      }
      if (doc) {
        const leg = { book, account, side, balanceAfter: readBalance(book, doc), sequence: readChanges(doc) };
        return { kind: 'applied', leg };
      }
      try {
        const explained = await this.#explainMiss(a, book, account, side);
        if (explained) return explained;
      } catch {
        // The leg did not apply, but why is unknown (the id may be recorded): "retry", not "failed".
        return { kind: 'refused', error: inProgress(a.spec) };
      }
    }
    return {
      kind: 'refused',
      error: unavailable(a.spec, `${side} of ${a.spec.opId} lost ${MAX_RACE_RETRIES} races in a row`),
    };
  }

  async #unanswered(a: Attempt, book: Book, account: string, side: LegSide): Promise<LegResult> {
    const decided = await this.#decide(a, book, account, side);
    const leg: AppliedLeg = { book, account, side, balanceAfter: null, sequence: null };
    return decided === 'applied' ? { kind: 'applied', leg } : { kind: 'fenced' };
  }

  /**
   * Applies the debits asked for in one turn: those on one document (same book, account and
   * minimum to keep, distinct operations) together with `applyDebits`, the others on their own. A
   * group that misses is retried one by one, so each debit gets exactly the answer it would
   * have had alone; a group whose reply is lost fails each of its debits, which then settle
   * their own leg. One member paying hundreds of times at once costs one update per group
   * instead of one per payment (`npm run bench:ledger`, hot/raw).
   */
  async #serveDebits(items: GroupedDebit[]): Promise<PromiseSettledResult<BalanceDoc | null>[]> {
    const results: PromiseSettledResult<BalanceDoc | null>[] = new Array(items.length);
    const alone = async (i: number) => {
      const { book, account, spec, marker } = items[i] as GroupedDebit;
      try {
        results[i] = {
          status: 'fulfilled',
          value: await this.ctx.patience.io(() => applyLeg(book, account, 'debit', spec, marker)),
        };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
    };
    await Promise.all(
      groupDebits(items).map(async (indices) => {
        if (indices.length === 1) return alone(indices[0] as number);
        const debits = indices.map((i) => items[i] as GroupedDebit);
        const first = debits[0] as GroupedDebit;
        let doc: BalanceDoc | null;
        try {
          doc = await this.ctx.patience.io(() => applyDebits(first.book, first.account, debits));
        } catch (reason) {
          for (const i of indices) results[i] = { status: 'rejected', reason };
          return;
        }
        if (!doc) {
          await Promise.all(indices.map(alone));
          return;
        }
        // In order: each debit's balance after it is the balance after all, plus what followed it.
        let after = readBalance(first.book, doc);
        let changes = readChanges(doc);
        for (const i of [...indices].reverse()) {
          results[i] = {
            status: 'fulfilled',
            value: { _id: first.account, [first.book.balanceField]: after, [CHANGES_FIELD]: changes },
          };
          after += (items[i] as GroupedDebit).spec.amount;
          changes -= 1;
        }
      }),
    );
    return results;
  }

  /**
   * Why a definitive miss missed. The document is read before the events: an attempt
   * writes its events before it drops its marker, so if no marker is seen here, a finished
   * attempt's events are visible to the read that follows (no false INSUFFICIENT_*).
   */
  async #explainMiss(a: Attempt, book: Book, account: string, side: LegSide): Promise<LegResult | null> {
    const doc = await this.ctx.patience.retry(() =>
      book.collection.findOne(
        { _id: account },
        { projection: { [book.balanceField]: 1, 'pendingOps.op': 1, 'fences.att': 1, closed: 1 } },
      ),
    );
    if (doc?.fences?.some((f) => f.att === a.att)) return { kind: 'fenced' };
    if (doc?.pendingOps?.some((p) => p.op === a.spec.opId)) return { kind: 'busy' };
    if (side === 'credit' && doc?.closed) return { kind: 'refused', error: accountClosed(a.spec, account) };
    const recorded = await this.ctx.recorded(a.spec);
    if (recorded) {
      return recorded.fingerprint === fingerprint(a.spec)
        ? { kind: 'recorded', recorded }
        : { kind: 'refused', error: reused(a.spec) };
    }
    const balance = readBalance(book, doc);
    if (side === 'debit' && balance < a.spec.amount + a.spec.keepAtLeast) {
      return { kind: 'refused', error: insufficient(book, a.spec, account, balance) };
    }
    if (side === 'credit' && doc && balance > book.maxBalance - a.spec.amount) {
      return { kind: 'refused', error: balanceLimit(book, a.spec, account, balance) };
    }
    return null; // The balance moved between the update and the read; try again.
  }

  /** Decides a leg whose request got no reply; OPERATION_IN_PROGRESS when that is impossible now. */
  async #decide(a: Attempt, book: Book, account: string, side: LegSide): Promise<LegDecision> {
    try {
      const { clock } = this.ctx.deps;
      return await this.ctx.patience.retry(() => decideLeg(book, account, a.spec.opId, a.att, clock.now()));
    } catch (error) {
      this.ctx.deps.log.error(
        { event: 'ledger.decide.failed', opId: a.spec.opId, attempt: a.att, leg: side, err: error },
        'could not decide a leg whose reply was lost; the recovery pass will',
      );
      throw inProgress(a.spec);
    }
  }
}

/**
 * The debits of one turn in groups, by index: one group per document (currency, account and
 * minimum to keep); a second debit of the same operation in the turn goes alone.
 */
function groupDebits(items: GroupedDebit[]): number[][] {
  const groups = new Map<string, number[]>();
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const op = `${item.book.currency}:${item.spec.opId}`;
    const key = seen.has(op)
      ? `alone:${i}`
      : `${item.book.currency}:${item.account}:${item.spec.keepAtLeast}`;
    seen.add(op);
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  return [...groups.values()];
}
