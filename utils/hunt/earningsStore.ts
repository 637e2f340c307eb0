import type { Collection, Db, Filter } from 'mongodb';

/** Exact score deltas and the points they paid: the audit of every progress reward. */
export interface ProgressEventDoc {
  _id: string;
  identity: string;
  owner: string;
  round: number;
  sequence: number;
  from: number;
  to: number;
  milli: number;
  at: Date;
}

/** Draw, time and admin bonuses (immutable). */
export interface BonusEventDoc {
  _id: string;
  kind: 'draw' | 'time' | 'admin';
  source: string;
  owner: string;
  milli: number;
  multiplier: number;
  units: number;
  /** As written when it was paid (English; kept for the audit trail as it was). */
  detail: string;
  /** A draw bonus's tip (absent on older events): what screens show in the reader's language. */
  tip?: { round: number; sequence: number; bonusPath: boolean };
  /** An admin grant's moderator and reason (absent on older events). */
  grant?: { moderatorId: string; reason: string };
  at: Date;
}

/** What earned Place points: score progress, a draw, active time, a moderator's grant. */
export const EARNING_KINDS = ['progress', 'draw', 'time', 'admin'] as const;
export type EarningKind = (typeof EARNING_KINDS)[number];

/** One earning as the moderators' portal lists it, from either event collection. */
export interface Earning {
  id: string;
  kind: EarningKind;
  owner: string;
  /** The identity that earned it: the owner, or one of its workers. */
  source: string;
  milli: number;
  at: Date;
  progress?: { round: number; from: number; to: number };
  bonus?: Pick<BonusEventDoc, 'multiplier' | 'units' | 'detail' | 'tip' | 'grant'>;
}

/** Where a page of earnings ends: the last one's time and id (the order is time, newest first, then id). */
export interface EarningsCursor {
  at: Date;
  id: string;
}

export interface EarningsQuery {
  kinds: readonly EarningKind[];
  owner?: string;
  before?: EarningsCursor;
  limit: number;
}

const after = (cursor: EarningsCursor | undefined) =>
  cursor ? { $or: [{ at: { $lt: cursor.at } }, { at: cursor.at, _id: { $gt: cursor.id } }] } : {};

/**
 * Score progress and bonus events read together, newest first, a page at a time: each
 * collection gives at most one page past the cursor (their `{ owner, at }` and `{ at }`
 * indexes), and the two are merged. Read-only; the hunt's store writes them.
 */
export class EarningsStore {
  readonly #progress: Collection<ProgressEventDoc>;
  readonly #bonus: Collection<BonusEventDoc>;

  constructor(db: Db, names: { progress: string; bonus: string }) {
    this.#progress = db.collection<ProgressEventDoc>(names.progress);
    this.#bonus = db.collection<BonusEventDoc>(names.bonus);
  }

  async page(query: EarningsQuery): Promise<{ earnings: Earning[]; next: EarningsCursor | null }> {
    const owner = query.owner ? { owner: query.owner } : {};
    const bonusKinds = query.kinds.filter((k) => k !== 'progress');
    const sort = { at: -1, _id: 1 } as const;
    const [progress, bonus] = await Promise.all([
      query.kinds.includes('progress')
        ? this.#progress
            .find({ ...owner, ...after(query.before) } as Filter<ProgressEventDoc>)
            .sort(sort)
            .limit(query.limit + 1)
            .toArray()
        : [],
      bonusKinds.length > 0
        ? this.#bonus
            .find({
              ...owner,
              ...(bonusKinds.length < 3 ? { kind: { $in: bonusKinds } } : {}),
              ...after(query.before),
            } as Filter<BonusEventDoc>)
            .sort(sort)
            .limit(query.limit + 1)
            .toArray()
        : [],
    ]);
    const merged = [...progress.map(fromProgress), ...bonus.map(fromBonus)].sort(
      (a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    const earnings = merged.slice(0, query.limit);
    const last = earnings.at(-1);
    return { earnings, next: merged.length > query.limit && last ? { at: last.at, id: last.id } : null };
  }
}

function fromProgress(p: ProgressEventDoc): Earning {
  return {
    id: p._id,
    kind: 'progress',
    owner: p.owner,
    source: p.identity,
    milli: p.milli,
    at: p.at,
    progress: { round: p.round, from: p.from, to: p.to },
  };
}

function fromBonus(b: BonusEventDoc): Earning {
  const bonus: Earning['bonus'] = { multiplier: b.multiplier, units: b.units, detail: b.detail };
  if (b.tip) bonus.tip = b.tip;
  if (b.grant) bonus.grant = b.grant;
  return { id: b._id, kind: b.kind, owner: b.owner, source: b.source, milli: b.milli, at: b.at, bonus };
}
