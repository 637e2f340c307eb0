import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { Reply, Subcommand } from '../../src/interactions/types.js';
import { AMOUNT_MAX, memberAmount } from '../../utils/money/amounts.js';
import type { HeistDoc } from '../../utils/vault/heistStore.js';
import { VAULT_MESSAGES } from '../../utils/vault/messages.js';
import { parseOptions } from '../options.js';

export const joinButton = defineComponent('vault.heist_join', { heist: z.string().regex(/^[\w-]{1,40}$/) });

const HEIST_RED = 0x9c2b2b;

export const heist: Subcommand = {
  sanctionScope: 'games',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(VAULT_MESSAGES, 'commands.heist'),
    options: [
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(VAULT_MESSAGES, 'commands.stake'),
        required: true,
        min_value: 1,
        max_value: AMOUNT_MAX,
      },
    ],
  },
  // The crew's message is the channel's: it speaks the server's language, as its end will.
  async run({ deps, invocation, actor, serverI18n }) {
    const { stake } = parseOptions(z.object({ stake: memberAmount }), invocation);
    const started = await deps.services.vault.startHeist({
      heistId: invocation.id,
      leader: actor.id,
      stake,
      locale: serverI18n.locale,
      channelId: invocation.channelId ?? null,
    });
    // The crew's message is what the heist's timer edits with the outcome, joined or not.
    return {
      ...heistMessage(started, serverI18n),
      onSent: ({ messageId }) => deps.services.vault.rememberMessage(started, messageId),
    };
  },
};

export const joinButtonHandler = defineComponentHandler(joinButton, {
  sanctionScope: 'games',
  async run({ deps, actor, invocation, i18n, serverI18n }, { heist: heistId }) {
    const vault = deps.services.vault;
    const heist = await vault.getHeist(heistId);
    if (heist) await vault.rememberMessage(heist, invocation.messageId);
    const joined = await vault.joinHeist(heistId, actor.id);
    if (joined.status === 'joined') return { ...heistMessage(joined.heist, serverI18n), update: true };
    const key = { already: 'vault:heist.already', closed: 'vault:heist.closed', full: 'vault:heist.full' }[
      joined.status
    ];
    return { ephemeral: true, content: i18n.t(key, { stake: i18n.cookies(joined.heist.stake) }) };
  },
});

/** The heist's public message: who is in, what it costs, when it sets off; once over, how it ended and no button. */
export function heistMessage(h: HeistDoc, i18n: Translator): Reply {
  const crew = h.crew.map((m) => `<@${m.userId}>`).join(', ');
  const lines = [
    i18n.t(h.status === 'open' ? 'vault:heist.open' : 'vault:heist.planned', {
      leader: h.leader,
      stake: i18n.cookies(h.stake),
    }),
    i18n.t('vault:heist.crew', { count: h.crew.length, crew }),
  ];
  if (h.status === 'open')
    lines.push(i18n.t('vault:heist.closes', { atSeconds: Math.floor(h.closesAt.getTime() / 1000) }));
  else if (h.result) lines.push(heistResultLine(h, i18n));
  return {
    embeds: [{ title: i18n.t('vault:heist.title'), color: HEIST_RED, description: lines.join('\n') }],
    buttons:
      h.status === 'open'
        ? [
            {
              customId: joinButton.build({ heist: h._id }),
              label: i18n.t('vault:heist.join'),
              style: 'danger',
            },
          ]
        : [],
  };
}

/** How a heist ended, with the numbers each member of the crew needs: odds, loot, shares, stakes. */
export function heistResultLine(h: HeistDoc, i18n: Translator): string {
  const r = h.result;
  if (!r) return '';
  const crew = r.crew.map((id) => `<@${id}>`).join(', ');
  const chance = i18n.number(r.chancePct);
  const stake = i18n.cookies(h.stake);
  if (r.outcome === 'success') {
    return r.loot > 0
      ? i18n.t('vault:heist.success', {
          crew,
          loot: i18n.cookies(r.loot),
          share: i18n.cookies(r.share),
          stake,
          chance,
        })
      : i18n.t('vault:heist.successEmpty', { crew, stake, chance });
  }
  if (r.outcome === 'failure')
    return i18n.t('vault:heist.failure', {
      crew,
      stake,
      total: i18n.cookies(h.stake * r.crew.length),
      chance,
    });
  return i18n.t('vault:heist.tooSmall', { count: r.crew.length, min: r.minCrew ?? r.crew.length + 1, stake });
}
