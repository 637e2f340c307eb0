import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { ADMIN_MESSAGES } from '../../utils/admin/messages.js';
import { parseOptions } from '../options.js';

const BATCH = 1_000;

/**
 * `/admin cleanup inactive days`: removes the profiles of members not seen for that many days,
 * but never one that earned Place value or placed a pixel (the canvas names its painters), and says how many
 * it kept for that reason. Balances and history are never touched: only the profile (name,
 * first and last seen) goes, with the member's rows in `server_members`; a member not seen in a
 * server for that long leaves that server's list (and its leaderboard) until they act there again.
 */
export const cleanupInactive: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(ADMIN_MESSAGES, 'commands.cleanupInactive'),
    options: [
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(ADMIN_MESSAGES, 'commands.cleanupDays'),
        required: true,
        min_value: 1,
        max_value: 3_650,
      },
    ],
  },
  defer: { ephemeral: true },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const { days } = parseOptions(z.object({ days: z.number().int().min(1).max(3_650) }), invocation);
    const before = new Date(deps.clock.now().getTime() - days * 86_400_000);
    const candidates = await deps.profiles.inactiveSince(before, BATCH);
    const removable: string[] = [];
    let kept = 0;
    for (const id of candidates) {
      const wallet = await deps.services.place.wallet(id);
      if (wallet.earned > 0 || wallet.balance > 0 || wallet.placements > 0) kept++;
      else removable.push(id);
    }
    const removed = await deps.profiles.remove(removable);
    // A server's list of members goes with them, and with everyone not seen there for as long.
    await deps.serverMembers.remove(removable);
    await deps.serverMembers.removeNotSeenSince(before);
    await deps.services.admin.record({
      id: `admin.cleanup:${invocation.id}`,
      kind: 'cleanup.inactive',
      actorId: actor.id,
      text: serverI18n.t('admin:audit.cleanedUp', {
        actor: actor.id,
        count: removed,
        kept,
        days: serverI18n.t('admin:cleanup.days', { count: days }),
      }),
    });
    return {
      ephemeral: true,
      content: i18n.t('admin:cleanup.done', {
        count: removed,
        days: i18n.t('admin:cleanup.days', { count: days }),
        kept: kept > 0 ? i18n.t('admin:cleanup.kept', { count: kept }) : '',
        more: candidates.length === BATCH ? i18n.t('admin:cleanup.more') : '',
      }),
    };
  },
};
