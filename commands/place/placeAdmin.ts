import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { invalidInputText } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { grantPlacePoints } from '../../utils/hunt/adminGrant.js';
import type { BonusEventDoc } from '../../utils/hunt/huntStore.js';
import { parsePlacePoints } from '../../utils/money/amounts.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { MAX_SIDE } from '../../utils/place/placeService.js';
import { memberOption, parseOptions } from '../options.js';

/** `/admin place grant target points [reason]`: moderators fund a wallet (0.001 precision), audited. */
export const placeGrant: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'admin.commands.placeGrant'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'admin.commands.placePoints'),
        required: true,
        max_length: 20,
      },
      { type: ApplicationCommandOptionType.User, ...localized(PLACE_MESSAGES, 'admin.commands.placeTarget') },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeWorker'),
        max_length: 40,
      },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'admin.commands.grantReason'),
        max_length: 200,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const { target, worker, points, reason } = parseOptions(
      z.object({
        target: memberOption.optional(),
        worker: z.string().max(40).optional(),
        points: z.string(),
        reason: z.string().max(200).default(''),
      }),
      invocation,
    );
    if (!target === !worker)
      throw invalidInputText('name a member or a worker', 'place:admin.place.targetOrWorker');
    let amount: number;
    try {
      amount = parsePlacePoints(points, i18n.locale);
    } catch {
      throw invalidInputText(`"${points}" is not an amount of points`, 'place:admin.place.badPoints', {
        points,
      });
    }
    const { owner, balance } = await grantPlacePoints(deps.services, serverI18n, {
      opId: `place.grant:${invocation.id}`,
      moderatorId: actor.id,
      ...(worker ? { worker } : { member: target as string }),
      milli: amount,
      reason,
    });
    return {
      ephemeral: true,
      content: i18n.t('place:admin.place.granted', {
        amount: i18n.points(amount),
        to: owner,
        balance: i18n.points(balance),
      }),
    };
  },
};

/** `/admin place resize width height`: enlarging always works (up to 2048), shrinking only over empty pixels. */
export const placeResize: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'admin.commands.placeResize'),
    options: [
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeWidth'),
        required: true,
        min_value: 1,
        max_value: MAX_SIDE,
      },
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeHeight'),
        required: true,
        min_value: 1,
        max_value: MAX_SIDE,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const { width, height } = parseOptions(
      z.object({
        width: z.number().int().min(1).max(MAX_SIDE),
        height: z.number().int().min(1).max(MAX_SIDE),
      }),
      invocation,
    );
    const before = await deps.services.place.resize(width, height);
    await deps.services.admin.record({
      id: `place.resize:${invocation.id}`,
      kind: 'place.resize',
      actorId: actor.id,
      text: serverI18n.t('place:admin.audit.placeResized', {
        actor: actor.id,
        from: `${before.width}×${before.height}`,
        to: `${width}×${height}`,
      }),
    });
    return {
      ephemeral: true,
      content: i18n.t('place:admin.place.resized', {
        from: `${before.width}×${before.height}`,
        to: `${width}×${height}`,
      }),
    };
  },
};

function toggle(enabled: boolean): Subcommand {
  return {
    definition: {
      type: ApplicationCommandOptionType.Subcommand,
      ...localized(PLACE_MESSAGES, enabled ? 'admin.commands.placeEnable' : 'admin.commands.placeDisable'),
    },
    async run({ deps, invocation, actor, i18n, serverI18n }) {
      await deps.runtimeConfig.set('place_enabled', enabled ? 'on' : 'off', actor.id);
      await deps.services.admin.record({
        id: `place.${enabled ? 'enable' : 'disable'}:${invocation.id}`,
        kind: enabled ? 'place.enable' : 'place.disable',
        actorId: actor.id,
        text: serverI18n.t(enabled ? 'place:admin.audit.placeEnabled' : 'place:admin.audit.placeDisabled', {
          actor: actor.id,
        }),
      });
      return {
        ephemeral: true,
        content: i18n.t(enabled ? 'place:admin.place.enabled' : 'place:admin.place.disabled'),
      };
    },
  };
}

/** `/admin place enable|disable`: the `place_enabled` setting, by name. */
export const placeEnable = toggle(true);
export const placeDisable = toggle(false);

/** `/admin place channel channel [feed]`: where the canvas (and the placement feed) are posted. */
export const placeChannel: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'admin.commands.placeChannel'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeChannelValue'),
        required: true,
        max_length: 40,
      },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeFeedValue'),
        max_length: 40,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { channel, feed } = parseOptions(
      z.object({ channel: z.string(), feed: z.string().optional() }),
      invocation,
    );
    await deps.runtimeConfig.set('place_channel', channel, actor.id);
    if (feed) await deps.runtimeConfig.set('place_feed_channel', feed, actor.id);
    return {
      ephemeral: true,
      content: i18n.t('place:admin.place.channelSet', {
        channel: channel.replace(/^(\d+)$/, '<#$1>'),
        feed: feed ?? '—',
      }),
    };
  },
};

/** `/admin place earnings [target] [limit]`: the recent draw, time and admin bonus events (default 50). */
export const placeEarnings: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'admin.commands.placeEarnings'),
    options: [
      { type: ApplicationCommandOptionType.User, ...localized(PLACE_MESSAGES, 'admin.commands.placeTarget') },
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeLimit'),
        min_value: 1,
        max_value: 200,
      },
    ],
  },
  async run({ deps, invocation, i18n }) {
    const { target, limit } = parseOptions(
      z.object({ target: memberOption.optional(), limit: z.number().int().min(1).max(200).default(50) }),
      invocation,
    );
    const events = await deps.services.hunt.earnings(limit, target);
    const lines = events.map((e) =>
      i18n.t('place:admin.place.earning', {
        kind: i18n.t(`place:admin.place.kinds.${e.kind}`),
        points: i18n.points(e.milli),
        owner: e.owner,
        source: e.source === e.owner ? '' : ` ← ${e.source}`,
        multiplier: e.multiplier,
        detail: earningDetail(e, i18n),
        atSeconds: Math.floor(e.at.getTime() / 1000),
      }),
    );
    // Discord caps a message at 2,000 characters: the newest lines that fit.
    let content = '';
    for (const line of lines) {
      if (content.length + line.length + 1 > 1_900) break;
      content += `${line}\n`;
    }
    return { ephemeral: true, content: content || i18n.t('place:admin.place.noEarnings') };
  },
};

/** What an earning was for, in the reader's words; events written before that was stored show their stored text. */
function earningDetail(e: BonusEventDoc, i18n: Translator): string {
  if (e.tip) {
    const tip = i18n.t('place:admin.place.tipDetail', { round: e.tip.round, sequence: e.tip.sequence });
    return e.tip.bonusPath ? `${tip}${i18n.t('place:admin.place.onBonusPath')}` : tip;
  }
  if (e.grant) {
    return e.grant.reason
      ? i18n.t('place:admin.place.grantDetailReason', { who: e.grant.moderatorId, reason: e.grant.reason })
      : i18n.t('place:admin.place.grantDetail', { who: e.grant.moderatorId });
  }
  return e.detail;
}
