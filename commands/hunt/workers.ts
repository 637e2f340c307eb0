import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { HUNT_MESSAGES } from '../../utils/hunt/messages.js';
import { parseOptions } from '../options.js';

export const workerLink: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(HUNT_MESSAGES, 'commands.workerLink'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(HUNT_MESSAGES, 'commands.workerLabel'),
        max_length: 40,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { label } = parseOptions(z.object({ label: z.string().max(40).default('worker') }), invocation);
    const worker = await deps.services.workers.link(actor.id, label);
    // Shown once, privately: the bot never shows the secret again.
    return {
      ephemeral: true,
      content: i18n.t('hunt:workers.linked', { id: worker._id, secret: worker.secret, label }),
    };
  },
};

export const workerList: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(HUNT_MESSAGES, 'commands.workerList'),
  },
  async run({ deps, actor, i18n }) {
    const workers = await deps.services.workers.list(actor.id);
    const lines = workers.map((w) =>
      i18n.t('hunt:workers.line', {
        id: w._id,
        label: w.label,
        atSeconds: Math.floor(w.createdAt.getTime() / 1000),
      }),
    );
    return { ephemeral: true, content: lines.join('\n') || i18n.t('hunt:workers.none') };
  },
};

export const workerUnlink: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(HUNT_MESSAGES, 'commands.workerUnlink'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(HUNT_MESSAGES, 'commands.workerId'),
        required: true,
        max_length: 40,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { id } = parseOptions(z.object({ id: z.string().max(40) }), invocation);
    const done = await deps.services.workers.unlink(actor.id, id);
    return {
      ephemeral: true,
      content: i18n.t(done ? 'hunt:workers.unlinked' : 'hunt:workers.notYours', { id }),
    };
  },
};
