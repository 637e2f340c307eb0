import { invalidInputText } from '../../src/errors.js';
import { localizedName } from '../../src/i18n/definitions.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler, defineUserMenu } from '../../src/interactions/defineCommand.js';
import { amountInput, formAmount } from '../../src/interactions/forms.js';
import { snowflake } from '../../src/snowflake.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { refuseBot } from '../options.js';
import { give } from './give.js';
import { profile } from './profile.js';
import { steal } from './steal.js';

/** The give form remembers whom it gives to; the amount is what the member types. */
export const giveForm = defineComponent('cookies.give_form', { to: snowflake });

/**
 * Apps › Give Cookies on a member: a form asks how many (telling the balance), and its answer
 * opens the same prompt as `/cookies give`, with its Give and Cancel buttons.
 */
const giveMenu = defineUserMenu({
  ...localizedName(COOKIES_MESSAGES, 'menus.give'),
  targetOption: 'user',
  handler: {
    sanctionScope: 'economy',
    async run({ deps, invocation, actor, i18n }) {
      const to = String(invocation.options.user);
      refuseBot(invocation, to);
      if (to === actor.id)
        throw invalidInputText('you cannot give Cookies to yourself', 'cookies:errors.giveToSelf');
      const balance = await deps.services.cookies.balance(actor.id);
      const name = invocation.users[to] ?? to;
      return {
        modal: {
          customId: giveForm.build({ to }),
          title: i18n.t('cookies:giveForm.title', { name }),
          inputs: [
            amountInput(
              'amount',
              i18n.t('cookies:giveForm.amount'),
              i18n.t('cookies:giveForm.placeholder', { balance: i18n.cookies(balance) }),
            ),
          ],
        },
      };
    },
  },
});

export const giveFormHandler = defineComponentHandler(giveForm, {
  sanctionScope: 'economy',
  run(ctx, { to }) {
    const amount = formAmount(ctx.invocation, 'amount');
    const options = { ...ctx.invocation.options, user: to, amount };
    return give.run({ ...ctx, invocation: { ...ctx.invocation, options } });
  },
});

/** Apps › Cookie profile and Apps › Steal Cookies: `/cookies profile` and `/cookies steal` on that member. */
export const COOKIES_MENUS = [
  giveMenu,
  defineUserMenu({
    ...localizedName(COOKIES_MESSAGES, 'menus.profile'),
    targetOption: 'user',
    handler: profile,
  }),
  defineUserMenu({ ...localizedName(COOKIES_MESSAGES, 'menus.steal'), targetOption: 'user', handler: steal }),
];
