import { type APIApplicationCommandBasicOption, ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { AMOUNT_MAX, memberAmount } from '../../utils/money/amounts.js';
import { memberOption } from '../options.js';

/** The `user` and `amount` options of anything that sends Cookies to a member (give, grant). */
export const RECIPIENT_OPTIONS: APIApplicationCommandBasicOption[] = [
  {
    type: ApplicationCommandOptionType.User,
    ...localized(COOKIES_MESSAGES, 'commands.recipientUser'),
    required: true,
  },
  {
    type: ApplicationCommandOptionType.Integer,
    ...localized(COOKIES_MESSAGES, 'commands.recipientAmount'),
    required: true,
    min_value: 1,
    max_value: AMOUNT_MAX,
  },
];

export const recipientSchema = z.object({ user: memberOption, amount: memberAmount });
