import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { GAMES_MESSAGES } from '../../utils/games/messages.js';
import { parseOptions } from '../options.js';

export const fairnessShow: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(GAMES_MESSAGES, 'commands.fairnessShow'),
  },
  async run({ deps, actor, i18n }) {
    const f = await deps.services.games.fairness(actor.id);
    return {
      ephemeral: true,
      content: i18n.t('games:fairness.show', { hash: f.serverSeedHash, seed: f.memberSeed, nonce: f.nonce }),
    };
  },
};

export const fairnessSeed: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(GAMES_MESSAGES, 'commands.fairnessSeed'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(GAMES_MESSAGES, 'commands.seedValue'),
        required: true,
        min_length: 1,
        max_length: 64,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { value: seed } = parseOptions(
      z.object({
        value: z
          .string()
          .trim()
          .regex(/^[\w-]{1,64}$/, 'games:errors.seedFormat'),
      }),
      invocation,
    );
    await deps.services.games.setMemberSeed(actor.id, seed);
    return { ephemeral: true, content: i18n.t('games:fairness.seedSet', { seed }) };
  },
};

export const fairnessRotate: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(GAMES_MESSAGES, 'commands.fairnessRotate'),
  },
  async run({ deps, actor, i18n }) {
    const r = await deps.services.games.rotateSeed(actor.id);
    return {
      ephemeral: true,
      content: i18n.t('games:fairness.rotated', {
        seed: r.revealedSeed,
        hash: r.revealedHash,
        count: r.rounds,
        next: r.nextHash,
      }),
    };
  },
};

export const verify: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(GAMES_MESSAGES, 'commands.verify'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(GAMES_MESSAGES, 'commands.verifyRound'),
        max_length: 40,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { round: asked } = parseOptions(
      z.object({
        round: z
          .string()
          .trim()
          .regex(/^[\w-]{1,40}$/, 'games:errors.roundFormat')
          .optional(),
      }),
      invocation,
    );
    const v = await deps.services.games.verify(asked ?? null, actor.id);
    const round = v.round._id;
    if (v.status === 'sealed')
      return {
        ephemeral: true,
        content: i18n.t('games:verify.sealed', { round, hash: v.round.seed.serverSeedHash }),
      };
    const { seed } = v.round;
    return {
      ephemeral: true,
      content: i18n.t(v.matches ? 'games:verify.matches' : 'games:verify.differs', {
        round,
        game: v.round.game,
        serverSeed: v.serverSeed,
        memberSeed: seed.memberSeed,
        nonce: seed.nonce,
        recomputed: v.recomputed,
        command: `npm run verify-round -- --game ${v.round.game} --server-seed ${v.serverSeed} --member-seed ${seed.memberSeed} --nonce ${seed.nonce} --bet ${v.round.bet}${Object.entries(
          v.round.params,
        )
          .map(([k, val]) => ` --${k} ${val}`)
          .join('')}`,
      }),
    };
  },
};
