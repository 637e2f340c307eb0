import { AppError, type ErrorMessages } from '../../src/errors.js';

declare module '../../src/errors.js' {
  interface ErrorCodeRegistry {
    GIVE_ABOVE_LIMIT: true;
    STEAL_PROTECTED: true;
    STEAL_TARGET_TOO_POOR: true;
    STEAL_BAG_EMPTY: true;
    STEAL_NEW_HERE: true;
    STEAL_NOT_MEMBER_HERE: true;
    STEAL_NOT_STARTED: true;
    STEAL_PASSIVE: true;
    PASSIVE_LOCKED: true;
    GIVE_RECEIVE_CAP: true;
  }
}

export function giveAboveLimit(amount: number, max: number): AppError {
  return new AppError('GIVE_ABOVE_LIMIT', `${amount} is above the limit of ${max} per give`, {
    amount,
    max,
  });
}

/** The victim is a new member (or one the bot has never seen): protected until `until` (null: unknown). */
export function stealProtected(victim: string, until: number | null): AppError {
  return new AppError('STEAL_PROTECTED', `${victim} is protected as a new member`, { victim, until });
}

export function stealTargetTooPoor(victim: string, balance: number, min: number): AppError {
  return new AppError('STEAL_TARGET_TOO_POOR', `${victim} has ${balance}, below ${min}`, {
    victim,
    balance,
    min,
  });
}

/** The thief's loot bag is empty: only collecting fills it (`pct` % of each reward). */
export function stealBagEmpty(pct: number): AppError {
  return new AppError('STEAL_BAG_EMPTY', 'the loot bag is empty: collect first', { pct });
}

/** The thief or the victim joined this server less than the protection time ago: no stealing until `until`. */
export function stealNewHere(who: 'thief' | 'victim', victim: string, until: number): AppError {
  return new AppError('STEAL_NEW_HERE', `the ${who} joined this server too recently`, { who, victim, until });
}

/** The bot never saw the victim in this server: not a member here, as far as it knows. */
export function stealNotMemberHere(victim: string): AppError {
  return new AppError('STEAL_NOT_MEMBER_HERE', `${victim} was never seen in this server`, { victim });
}

/** Stealing was switched on in this server less than its start delay ago: it starts at `at`. */
export function stealNotStarted(at: number): AppError {
  return new AppError('STEAL_NOT_STARTED', 'stealing has not started in this server yet', { at });
}

/** The thief or the victim is in passive mode: neither steals nor is robbed. */
export function stealPassive(who: 'thief' | 'victim', victim: string): AppError {
  return new AppError('STEAL_PASSIVE', `the ${who} is in passive mode`, { who, victim });
}

/** Passive mode went on at `since` and may go off only from `at` (`hours` after). */
export function passiveLocked(since: number, at: number, hours: number): AppError {
  return new AppError('PASSIVE_LOCKED', 'passive mode cannot be switched off yet', { since, at, hours });
}

/** The receiver's day cannot take this give: `received` of `cap` so far, the day resets at `resetsAt`. */
export function giveReceiveCap(
  to: string,
  day: { received: number; cap: number; amount: number; resetsAt: number },
): AppError {
  return new AppError('GIVE_RECEIVE_CAP', `${to} received ${day.received} of ${day.cap} today`, {
    to,
    ...day,
    left: Math.max(0, day.cap - day.received),
  });
}

type CookieErrorCode =
  | 'GIVE_ABOVE_LIMIT'
  | 'STEAL_PROTECTED'
  | 'STEAL_TARGET_TOO_POOR'
  | 'STEAL_BAG_EMPTY'
  | 'STEAL_NEW_HERE'
  | 'STEAL_NOT_MEMBER_HERE'
  | 'STEAL_NOT_STARTED'
  | 'STEAL_PASSIVE'
  | 'PASSIVE_LOCKED'
  | 'GIVE_RECEIVE_CAP';

const seconds = (ms: unknown) => Math.ceil(Number(ms) / 1000);

export const COOKIES_ERROR_MESSAGES: ErrorMessages<CookieErrorCode> = {
  GIVE_ABOVE_LIMIT: (c, _, i18n) =>
    i18n.t('cookies:errors.GIVE_ABOVE_LIMIT', {
      max: i18n.cookies(Number(c.max)),
      amount: i18n.cookies(Number(c.amount)),
    }),
  STEAL_PROTECTED: (c, _, i18n) =>
    c.until === null || c.until === undefined
      ? i18n.t('cookies:errors.STEAL_PROTECTED_UNSEEN', { victim: c.victim })
      : i18n.t('cookies:errors.STEAL_PROTECTED', {
          victim: c.victim,
          untilSeconds: Math.ceil(Number(c.until) / 1000),
        }),
  STEAL_TARGET_TOO_POOR: (c, _, i18n) =>
    i18n.t('cookies:errors.STEAL_TARGET_TOO_POOR', {
      victim: c.victim,
      balance: i18n.cookies(Number(c.balance)),
      min: i18n.cookies(Number(c.min)),
    }),
  STEAL_BAG_EMPTY: (c, _, i18n) =>
    i18n.t('cookies:errors.STEAL_BAG_EMPTY', { pct: i18n.number(Number(c.pct)) }),
  STEAL_NEW_HERE: (c, _, i18n) =>
    i18n.t(
      c.who === 'thief' ? 'cookies:errors.STEAL_THIEF_NEW_HERE' : 'cookies:errors.STEAL_VICTIM_NEW_HERE',
      {
        victim: c.victim,
        untilSeconds: seconds(c.until),
      },
    ),
  STEAL_NOT_MEMBER_HERE: (c, _, i18n) => i18n.t('cookies:errors.STEAL_NOT_MEMBER_HERE', { victim: c.victim }),
  STEAL_NOT_STARTED: (c, _, i18n) => i18n.t('cookies:errors.STEAL_NOT_STARTED', { atSeconds: seconds(c.at) }),
  STEAL_PASSIVE: (c, _, i18n) =>
    i18n.t(c.who === 'thief' ? 'cookies:errors.STEAL_THIEF_PASSIVE' : 'cookies:errors.STEAL_VICTIM_PASSIVE', {
      victim: c.victim,
    }),
  GIVE_RECEIVE_CAP: (c, _, i18n) =>
    i18n.t('cookies:errors.GIVE_RECEIVE_CAP', {
      to: c.to,
      amount: i18n.cookies(Number(c.amount)),
      received: i18n.cookies(Number(c.received)),
      cap: i18n.cookies(Number(c.cap)),
      left: i18n.cookies(Number(c.left)),
      resetsSeconds: seconds(c.resetsAt),
    }),
  PASSIVE_LOCKED: (c, _, i18n) =>
    i18n.t('cookies:errors.PASSIVE_LOCKED', {
      sinceSeconds: seconds(c.since),
      atSeconds: seconds(c.at),
      hours: i18n.number(Number(c.hours)),
    }),
};
