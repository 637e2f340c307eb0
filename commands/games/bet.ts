import { type APIApplicationCommandBasicOption, ApplicationCommandOptionType } from 'discord.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { GAMES_MESSAGES } from '../../utils/games/messages.js';
import type { RoundDoc } from '../../utils/games/roundStore.js';
import { AMOUNT_MAX, memberAmount } from '../../utils/money/amounts.js';

/** The `bet` option every house game has. */
export const BET_OPTION: APIApplicationCommandBasicOption = {
  type: ApplicationCommandOptionType.Integer,
  ...localized(GAMES_MESSAGES, 'commands.bet'),
  required: true,
  min_value: 1,
  max_value: AMOUNT_MAX,
};

export const betSchema = memberAmount;

/** The round's fairness line: the seed hash, the member seed and the nonce, and how to verify it. */
export function fairnessFooter(round: RoundDoc, i18n: Translator): string {
  return i18n.t('games:round.footer', {
    round: round._id,
    hash: round.seed.serverSeedHash.slice(0, 16),
    nonce: round.seed.nonce,
  });
}

/** "You won 196 Cookies (net +96)" or "You lost 100 Cookies", for any settled round. */
export function resultLine(round: RoundDoc, i18n: Translator): string {
  const stake = round.stake ?? round.bet;
  const payout = round.payout ?? 0;
  if (payout > stake)
    return i18n.t('games:round.won', { payout: i18n.cookies(payout), net: i18n.cookies(payout - stake) });
  if (payout === stake) return i18n.t('games:round.push', { stake: i18n.cookies(stake) });
  if (payout > 0)
    return i18n.t('games:round.partial', { payout: i18n.cookies(payout), stake: i18n.cookies(stake) });
  return i18n.t('games:round.lost', { stake: i18n.cookies(stake) });
}
