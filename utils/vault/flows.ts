import { COOKIE_KINDS } from '../money/cookieEconomy.js';
import type { KindTotal } from '../money/ledger/ledger.js';

/** The vault's last day, folded by what moved the Cookies. */
export interface VaultFlow {
  group: 'games' | 'heists' | 'steal' | 'shop' | 'bakery' | 'funding' | 'other';
  /** Games and heists: what members staked (a game's refunded stake taken off); else what reached the vault. */
  in: number;
  /** Games and heists: what members were paid (stakes back included, a called-off heist's too); else what left the vault. */
  out: number;
  count: number;
}

const GROUP_ORDER: VaultFlow['group'][] = ['games', 'heists', 'steal', 'shop', 'bakery', 'funding', 'other'];

/**
 * The flows `/vault show` lists. House games and heists are told from the members' side:
 * the vault also moves Cookies into a round's pot and back (its share of the largest win),
 * and those reservations are neither a member's stake nor a payout. Everything else is
 * told from the vault's own changes.
 */
export function vaultFlows(flows: {
  members: Map<string, KindTotal>;
  house: Map<string, KindTotal>;
}): VaultFlow[] {
  const m = (kind: string): KindTotal => flows.members.get(kind) ?? { count: 0, in: 0, out: 0 };
  const groups = new Map<VaultFlow['group'], VaultFlow>();
  const games = m(COOKIE_KINDS.gameStake);
  groups.set('games', {
    group: 'games',
    in: games.out - m(COOKIE_KINDS.gameRefund).in,
    out: m(COOKIE_KINDS.gamePayout).in,
    count: games.count,
  });
  const heists = m(COOKIE_KINDS.heistStake);
  groups.set('heists', {
    group: 'heists',
    in: heists.out,
    out: m(COOKIE_KINDS.heistPayout).in,
    count: heists.count,
  });
  for (const [kind, total] of flows.house) {
    const group = groupOf(kind);
    if (group === 'games' || group === 'heists') continue;
    const flow = groups.get(group) ?? { group, in: 0, out: 0, count: 0 };
    flow.in += total.in;
    flow.out += total.out;
    flow.count += total.count;
    groups.set(group, flow);
  }
  return GROUP_ORDER.flatMap((group) => {
    const flow = groups.get(group);
    return flow && (flow.count > 0 || flow.in > 0 || flow.out > 0) ? [flow] : [];
  });
}

function groupOf(kind: string): VaultFlow['group'] {
  if (kind.startsWith('games.')) return 'games';
  if (kind.startsWith('heist.')) return 'heists';
  if (kind.startsWith('steal.')) return 'steal';
  if (kind.startsWith('shop.')) return 'shop';
  if (kind === COOKIE_KINDS.bakeryShare) return 'bakery';
  if (kind === COOKIE_KINDS.vaultFund || kind === COOKIE_KINDS.grant) return 'funding';
  return 'other';
}
