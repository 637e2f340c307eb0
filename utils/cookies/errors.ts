import { AppError, type ErrorMessages } from '../errors.js';

declare module '../errors.js' {
  interface ErrorCodeRegistry {
    GIVE_ABOVE_LIMIT: true;
  }
}

export function giveAboveLimit(amount: number, max: number): AppError {
  return new AppError('GIVE_ABOVE_LIMIT', `${amount} is above the limit of ${max} per give`, {
    amount,
    max,
  });
}

export const COOKIES_ERROR_MESSAGES: ErrorMessages<'GIVE_ABOVE_LIMIT'> = {
  GIVE_ABOVE_LIMIT: (c, _, i18n) =>
    i18n.t('cookies:errors.GIVE_ABOVE_LIMIT', {
      max: i18n.cookies(Number(c.max)),
      amount: i18n.cookies(Number(c.amount)),
    }),
};
