import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { BotDeps, Reply, Subcommand } from '../../src/interactions/types.js';
import type { ErasureDoc } from '../../utils/privacy/erasureStore.js';
import { privacyInPlay } from '../../utils/privacy/errors.js';
import { PRIVACY_MESSAGES } from '../../utils/privacy/messages.js';

/** A confirmation is good for ten minutes: an old message's button asks again. */
export const CONFIRM_WITHIN_MS = 10 * 60_000;

const at = { at: z.coerce.number().int().nonnegative() };
export const forgetButton = defineComponent('privacy.forget', at);
export const keepButton = defineComponent('privacy.keep', {});

/** What forgetting would take: refused at once while something is in play, else the balances. */
export async function forgetPreview(deps: BotDeps, member: string, i18n: Translator) {
  const inPlay = await deps.services.privacy.inPlay(deps.services, member);
  if (Object.keys(inPlay).length > 0) throw privacyInPlay(inPlay);
  const { cookies, points } = await deps.services.privacy.holdings(member);
  return { cookies: i18n.cookies(cookies), points: i18n.points(points) };
}

/** The confirmation's time from a button's `at`, refused once it is too old. */
export function refuseStale(deps: BotDeps, seconds: number): void {
  if (deps.clock.now().getTime() - seconds * 1000 > CONFIRM_WITHIN_MS) {
    throw new AppError('INVALID_INPUT', 'the confirmation expired', { messageKey: 'privacy:forget.expired' });
  }
}

/** How the erasure ended, for whoever pressed: done now, or finishing on its own timer. */
export function erasureResult(erasure: ErasureDoc, i18n: Translator, doneKey: string): Reply {
  const content =
    erasure.state === 'done'
      ? i18n.t(doneKey, {
          pseudonym: erasure.pseudonym,
          rewritten: i18n.number(erasure.documents?.rewritten ?? 0),
          deleted: i18n.number(erasure.documents?.deleted ?? 0),
        })
      : i18n.t('privacy:forget.started');
  return { update: true, ephemeral: true, content, buttons: [] };
}

/** `/privacy forget`: asks first, with what the member would give up. */
export const privacyForget: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PRIVACY_MESSAGES, 'commands.forget'),
  },
  async run({ deps, actor, i18n }) {
    const holdings = await forgetPreview(deps, actor.id, i18n);
    return {
      ephemeral: true,
      content: i18n.t('privacy:forget.prompt', holdings),
      buttons: [
        {
          customId: forgetButton.build({ at: Math.floor(deps.clock.now().getTime() / 1000) }),
          label: i18n.t('privacy:forget.confirm'),
          style: 'danger',
        },
        { customId: keepButton.build({}), label: i18n.t('privacy:forget.cancel'), style: 'secondary' },
      ],
    };
  },
};

/** The member confirmed: their own data, nobody else's (the button acts on whoever presses it). */
export const forgetButtonHandler = defineComponentHandler(forgetButton, {
  // An erasure waits for every process to have read it (about a second): acknowledged at once.
  defer: true,
  async run({ deps, actor, i18n, serverI18n }, { at: seconds }) {
    refuseStale(deps, seconds);
    const erasure = await deps.services.privacy.forget(deps.services, actor.id, 'self', serverI18n.locale);
    return erasureResult(erasure, i18n, 'privacy:forget.done');
  },
});

export const keepButtonHandler = defineComponentHandler(keepButton, {
  async run({ i18n }) {
    return { update: true, ephemeral: true, content: i18n.t('privacy:forget.cancelled'), buttons: [] };
  },
});
