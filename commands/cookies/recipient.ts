import { type APIApplicationCommandBasicOption, ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { memberAmount } from '../../utils/amounts.js';
import { memberOption } from '../options.js';

/** The `user` and `amount` options of anything that sends Cookies to a member (give, grant). */
export const RECIPIENT_OPTIONS: APIApplicationCommandBasicOption[] = [
  { type: ApplicationCommandOptionType.User, name: 'user', description: 'Who receives them', required: true },
  {
    type: ApplicationCommandOptionType.Integer,
    name: 'amount',
    description: 'How many Cookies',
    required: true,
    min_value: 1,
  },
];

export const recipientSchema = z.object({ user: memberOption, amount: memberAmount });
