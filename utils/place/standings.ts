import type { PlaceEconomy } from '../money/placeEconomy.js';
import type { RollbackStore } from './rollbackStore.js';

interface StandingDeps {
  economy: Pick<PlaceEconomy, 'wallet' | 'top' | 'refunded'>;
  rollbacks: Pick<RollbackStore, 'rolledBack'>;
}

/** A row of a ranking: a member and their figure. */
export interface Ranked {
  account: string;
  value: number;
}

/**
 * A member's Place figures as members see them (`/place me`): pixels painted without those a
 * rollback undid; earned without refunds, which give back what was spent and earn nothing;
 * spent without what was refunded. The balance is the wallet's, so it still equals earned −
 * spent. The wallet itself (`PlaceEconomy.wallet`) keeps every placement and credit.
 */
export async function placeStanding(deps: StandingDeps, identity: string) {
  const [wallet, rolledBack, refunded] = await Promise.all([
    deps.economy.wallet(identity),
    deps.rollbacks.rolledBack(identity),
    deps.economy.refunded(identity),
  ]);
  return {
    balance: wallet.balance,
    earned: wallet.earned - refunded,
    spent: wallet.spent - refunded,
    placements: wallet.placements - (rolledBack.get(identity)?.placements ?? 0),
  };
}

/** `/place leaderboard`: the most pixels painted and the most points earned, as `placeStanding` counts them. */
export async function placeLeaderboard(
  deps: StandingDeps,
  size: number,
): Promise<{ placements: Ranked[]; earned: Ranked[] }> {
  const rolledBack = await deps.rollbacks.rolledBack();
  const undone = new Map([...rolledBack].map(([member, r]) => [member, r.placements]));
  const refunded = new Map(
    await Promise.all(
      [...rolledBack]
        .filter(([, r]) => r.refunded)
        .map(async ([member]) => [member, await deps.economy.refunded(member)] as const),
    ),
  );
  const [placements, earned] = await Promise.all([
    deps.economy.top('placements', size + undone.size),
    deps.economy.top('earned', size + refunded.size),
  ]);
  return { placements: lessened(placements, undone, size), earned: lessened(earned, refunded, size) };
}

/**
 * The first `size` of a ranking once each member's `less` is taken off, most first (ties by
 * id, as the wallets are read). Exact when `rows` are the top `size + less.size` as stored:
 * only members in `less` can fall, so `size` members outside it always remain above the rest.
 */
export function lessened(rows: Ranked[], less: Map<string, number>, size: number): Ranked[] {
  return rows
    .map((r) => ({ account: r.account, value: r.value - (less.get(r.account) ?? 0) }))
    .filter((r) => r.value > 0)
    .sort((a, b) => b.value - a.value || (a.account < b.account ? -1 : a.account > b.account ? 1 : 0))
    .slice(0, size);
}
