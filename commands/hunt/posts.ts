import type { Locale, Translator } from '../../src/i18n/i18n.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { huntFacts } from '../../utils/hunt/guide.js';
import type { Drawn, HuntAnnouncements } from '../../utils/hunt/huntService.js';
import { formatScore } from '../../utils/hunt/scoring.js';
import { huntIntro } from './guide.js';

/** One drawn tip as the draw's post tells it: who, which tip, its score and what it earned. */
function drawnLine(i18n: Translator, d: Drawn): string {
  return i18n.t(d.improvedFrom === null ? 'hunt:post.drawn' : 'hunt:post.improved', {
    who: d.tip.identity,
    sequence: d.tip.sequence,
    score: formatScore(d.score, i18n.locale),
    points: i18n.points(d.drawMilli + d.progressMilli),
  });
}

/** The drawn tips made in each channel (a worker's tip was made in none). */
function byChannel(drawn: Drawn[]): Map<string, Drawn[]> {
  const channels = new Map<string, Drawn[]>();
  for (const d of drawn) {
    if (d.tip.channelId) channels.set(d.tip.channelId, [...(channels.get(d.tip.channelId) ?? []), d]);
  }
  return channels;
}

/**
 * What the hunt's timers tell members: each draw (to `hunt_channel`; without one, or when it
 * fails, in each channel a drawn tip was made in, so whoever was drawn hears it), each
 * round's explanation as the hunt channel's first post of the round, the bonus path as a draw
 * opens, and a finished round's target. In the language of the server the tips came from.
 */
export function huntPosts(deps: BotDeps): HuntAnnouncements {
  const text = (locale: Locale | null | undefined) => deps.i18n.for(locale ?? 'en');
  const post = (content: string) => deps.poster.post('hunt_channel', { content });
  return {
    async drawn(window, drawn) {
      const i18n = text(window.locale);
      const title = i18n.t('hunt:post.title', { round: window.round, count: drawn.length });
      // Drawn members who asked to hear of it are notified; the others see their mention only.
      const notify = await deps.profiles.toNotify(
        'hunt.drawn',
        drawn.map((d) => d.tip.identity),
      );
      const posted = await deps.poster.post('hunt_channel', {
        content: [title, ...drawn.map((d) => drawnLine(i18n, d))].join('\n'),
        notify,
      });
      if (posted.status === 'posted') return;
      for (const [channelId, here] of byChannel(drawn)) {
        const local = text(here[0]?.tip.locale ?? window.locale);
        const lines = [
          local.t('hunt:post.here', { round: window.round }),
          ...here.map((d) => drawnLine(local, d)),
        ];
        await deps.poster.postIn(channelId, { content: lines.join('\n'), notify });
      }
    },
    async opened(window) {
      const i18n = text(window.locale);
      // Only a channel that takes posts (the default's, or a server's own) uses up the round's explanation.
      if (
        (await deps.poster.takesPosts('hunt_channel')) &&
        (await deps.services.hunt.claimIntro(window.round))
      ) {
        await post(huntIntro(i18n, await huntFacts(deps.runtimeConfig), window.round));
      }
      if (window.bonusPath === null) return;
      await post(
        i18n.t('hunt:post.opened', {
          path: window.bonusPath,
          weight: await deps.runtimeConfig.get('beacon_bonus_weight'),
          atSeconds: Math.floor(window.closesAt.getTime() / 1000),
        }),
      );
    },
    async rerolled({ round, target, best, locale }) {
      const i18n = text(locale);
      const lines = [i18n.t('hunt:post.rerolled', { round, next: round + 1, target: target.join(', ') })];
      if (best) {
        lines.push(
          i18n.t('hunt:post.rerolledBest', {
            round,
            who: best.identity,
            score: formatScore(best.best, i18n.locale),
          }),
        );
      }
      await post(lines.join('\n'));
    },
  };
}
