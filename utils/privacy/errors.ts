import { AppError, type ErrorMessages } from '../../src/errors.js';
import type { Translator } from '../../src/i18n/i18n.js';

declare module '../../src/errors.js' {
  interface ErrorCodeRegistry {
    PRIVACY_IN_PLAY: true;
    PRIVACY_ERASING: true;
  }
}

/** What a member still has in play, by kind (`game`, `heist`, `poker`, `collect`, …): how many. */
export type InPlay = Record<string, number>;

/** A member with money in play cannot be forgotten yet: it would be stranded under no one. */
export function privacyInPlay(inPlay: InPlay): AppError {
  const what = Object.entries(inPlay)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  return new AppError('PRIVACY_IN_PLAY', `still in play: ${what}`, { ...inPlay });
}

const KNOWN_IN_PLAY = [
  'game',
  'heist',
  'poker',
  'collect',
  'rollback',
  'hunt.time',
  'hunt.tip',
  'placement',
  'trade',
];

function describeInPlay(context: Record<string, unknown>, i18n: Translator): string {
  return Object.entries(context)
    .filter(([, n]) => typeof n === 'number' && n > 0)
    .map(([kind, n]) =>
      i18n.t(`privacy:inPlay.${KNOWN_IN_PLAY.includes(kind) ? kind.replace('.', '_') : 'other'}`, {
        count: n,
      }),
    )
    .join(', ');
}

export const PRIVACY_ERROR_MESSAGES: ErrorMessages<'PRIVACY_IN_PLAY' | 'PRIVACY_ERASING'> = {
  PRIVACY_IN_PLAY: (c, _, i18n) =>
    i18n.t('privacy:errors.PRIVACY_IN_PLAY', { what: describeInPlay(c, i18n) }),
  // A member being erased: nothing of theirs starts until it is done (utils/privacy/freeze.ts).
  PRIVACY_ERASING: (_, __, i18n) => i18n.t('privacy:errors.PRIVACY_ERASING'),
};
