import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { invalidInputText } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import type { CommandContext, Reply, Subcommand } from '../../src/interactions/types.js';
import { huntFacts } from '../../utils/hunt/guide.js';
import { HUNT_MESSAGES } from '../../utils/hunt/messages.js';
import { formatScore, MAX_WEIGHT, parseGuess, WEIGHTS } from '../../utils/hunt/scoring.js';
import { parseOptions } from '../options.js';
import { huntTask } from './guide.js';

/** Every hunt command counts as activity (active-time rewards) before it answers. */
async function active(ctx: CommandContext): Promise<string | null> {
  const paid = await ctx.deps.services.hunt.activity(ctx.actor.id);
  return paid > 0 ? ctx.i18n.t('hunt:timePaid', { points: ctx.i18n.points(paid) }) : null;
}

function withTime(reply: Reply, line: string | null): Reply {
  return line ? { ...reply, content: [reply.content, line].filter(Boolean).join('\n') } : reply;
}

export const join: Subcommand = {
  definition: { type: ApplicationCommandOptionType.Subcommand, ...localized(HUNT_MESSAGES, 'commands.join') },
  async run(ctx) {
    await ctx.deps.services.hunt.assertEnabled();
    return withTime({ ephemeral: true, content: ctx.i18n.t('hunt:joined') }, await active(ctx));
  },
};

export const tip: Subcommand = {
  sanctionScope: 'economy',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(HUNT_MESSAGES, 'commands.tip'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(HUNT_MESSAGES, 'commands.guess'),
        required: true,
        max_length: 60,
      },
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(HUNT_MESSAGES, 'commands.path'),
        min_value: 0,
        max_value: 15,
      },
    ],
  },
  async run(ctx) {
    const { guess: text, path } = parseOptions(
      z.object({ guess: z.string(), path: z.number().int().min(0).optional() }),
      ctx.invocation,
    );
    const guess = parseGuess(text);
    if (!guess)
      throw invalidInputText(`"${text}" is not a guess`, 'hunt:errors.guess', {
        weights: WEIGHTS,
        max: MAX_WEIGHT,
      });
    // Where the tip was made: its draw is told there when no hunt channel takes it.
    const { tip: stored, window } = await ctx.deps.services.hunt.tip(ctx.actor.id, guess, path ?? null, {
      channelId: ctx.invocation.channelId ?? null,
      locale: ctx.serverI18n.locale,
    });
    const line = await active(ctx);
    return withTime(
      {
        ephemeral: true,
        content: [
          ctx.i18n.t('hunt:tipped', {
            guess: stored.guess.join(', '),
            sequence: stored.sequence,
            atSeconds: Math.floor(window.closesAt.getTime() / 1000),
          }),
          await pathLine(ctx, path ?? null, window.bonusPath),
        ]
          .filter(Boolean)
          .join('\n'),
      },
      line,
    );
  },
};

/** What a tip's path means in its window (the bonus path), or nothing when no path was named. */
async function pathLine(ctx: CommandContext, path: number | null, boosted: number | null): Promise<string> {
  if (path === null) return '';
  if (boosted === null) return ctx.i18n.t('hunt:tipPath.ignored');
  if (path !== boosted) return ctx.i18n.t('hunt:tipPath.other', { path, boosted });
  const weight = await ctx.deps.runtimeConfig.get('beacon_bonus_weight');
  return ctx.i18n.t('hunt:tipPath.boosted', { path, weight });
}

export const status: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(HUNT_MESSAGES, 'commands.status'),
  },
  async run(ctx) {
    const [s, facts] = await Promise.all([
      ctx.deps.services.hunt.status(ctx.actor.id),
      huntFacts(ctx.deps.runtimeConfig),
    ]);
    const lines = [
      huntTask(ctx.i18n, facts),
      ctx.i18n.t('hunt:status.draw', {
        round: s.round,
        count: facts.drawsPerDraw,
        atSeconds: Math.floor(s.window.closesAt.getTime() / 1000),
      }),
      s.window.bonusPath !== null
        ? ctx.i18n.t('hunt:status.bonusPath', { path: s.window.bonusPath, weight: facts.bonusPath.weight })
        : facts.bonusPath.on
          ? ctx.i18n.t('hunt:status.bonusPathNext')
          : '',
      s.tip
        ? ctx.i18n.t(s.tip.path === null ? 'hunt:status.pending' : 'hunt:status.pendingPath', {
            guess: s.tip.guess.join(', '),
            sequence: s.tip.sequence,
            path: s.tip.path,
          })
        : ctx.i18n.t('hunt:status.noTip'),
      s.best === null
        ? ctx.i18n.t('hunt:status.noBest')
        : ctx.i18n.t('hunt:status.best', { best: formatScore(s.best, ctx.i18n.locale) }),
      ctx.i18n.t('hunt:status.more'),
    ].filter(Boolean);
    return withTime({ ephemeral: true, content: lines.join('\n') }, await active(ctx));
  },
};

export const leaderboard: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(HUNT_MESSAGES, 'commands.leaderboard'),
  },
  async run(ctx) {
    const { round, rows } = await ctx.deps.services.hunt.leaderboard(10);
    const lines = rows.map((r, i) => `${i + 1}. <@${r.identity}> — ${formatScore(r.best, ctx.i18n.locale)}`);
    return {
      embeds: [
        {
          title: ctx.i18n.t('hunt:leaderboard.title', { round }),
          description: lines.join('\n') || ctx.i18n.t('hunt:leaderboard.empty'),
        },
      ],
    };
  },
};

export const history: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(HUNT_MESSAGES, 'commands.history'),
  },
  async run(ctx) {
    const tips = await ctx.deps.services.hunt.history(ctx.actor.id, 10);
    const lines = tips.map((t) =>
      ctx.i18n.t('hunt:history.line', {
        round: t.round,
        sequence: t.sequence,
        guess: t.guess.join(', '),
        score: formatScore(t.score ?? 0, ctx.i18n.locale),
      }),
    );
    return { ephemeral: true, content: lines.join('\n') || ctx.i18n.t('hunt:history.empty') };
  },
};
