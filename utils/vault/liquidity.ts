/**
 * The vault's liquidity rules (ECONOMY.md, "The vault and its liquidity"): the vault keeps
 * its reserve, and one round or heist may put at most `payout_share_pct` % of what lies above
 * the reserve at risk. A bet is accepted when its largest possible win fits in that share.
 */
export interface VaultLiquidity {
  balance: number;
  reserve: number;
  /** Cookies above the reserve. */
  free: number;
  /** The most one round may win from the vault right now. */
  payable: number;
}

export function vaultLiquidity(balance: number, reserve: number, sharePct: number): VaultLiquidity {
  const free = Math.max(0, balance - reserve);
  return { balance, reserve, free, payable: Math.floor((free * sharePct) / 100) };
}

/** The house's part of a round's pot: the largest payout minus the bet. */
export function houseHold(bet: number, maxMultiplier: number): number {
  return Math.max(0, Math.ceil(bet * maxMultiplier) - bet);
}

/** The largest bet whose house hold fits in what the vault may pay out now. */
export function maxBet(liquidity: VaultLiquidity, maxMultiplier: number): number {
  if (maxMultiplier <= 1) return Number.MAX_SAFE_INTEGER;
  let bet = Math.floor(liquidity.payable / (maxMultiplier - 1));
  while (bet > 0 && houseHold(bet, maxMultiplier) > liquidity.payable) bet--;
  return bet;
}
