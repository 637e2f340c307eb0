import type { Translator } from '../../src/i18n/i18n.js';
import type { HuntFacts } from '../../utils/hunt/guide.js';
import { formatScore } from '../../utils/hunt/scoring.js';

/** `5 minutes` from 300, `90 seconds` from 90 (German `5 Minuten`, `90 Sekunden`). */
export function duration(i18n: Translator, seconds: number): string {
  return seconds % 60 === 0
    ? i18n.t('hunt:units.minutes', { count: seconds / 60 })
    : i18n.t('hunt:units.seconds', { count: seconds });
}

/** The values every hunt explanation shares, in the reader's language. */
function values(i18n: Translator, f: HuntFacts) {
  return {
    weights: f.weights,
    max: f.max,
    zeroAt: f.zeroAt,
    perStep: formatScore(f.perStep, i18n.locale),
    every: duration(i18n, f.drawEverySeconds),
    count: f.drawsPerDraw,
    drawPoints: i18n.points(f.drawMilli),
    perPercent: i18n.points(f.perPercentMilli),
  };
}

/** `/help topic:hunt`: the whole hunt, with the worked example and the rewards as set now. */
export function huntGuide(i18n: Translator, f: HuntFacts): string {
  const v = values(i18n, f);
  const { example } = f;
  const bonus = { maxPath: f.bonusPath.paths - 1, weight: f.bonusPath.weight };
  const drawLine =
    f.boostedDrawMilli === f.drawMilli
      ? i18n.t('hunt:guide.payDraw', { points: v.drawPoints })
      : i18n.t('hunt:guide.payDrawBoosted', {
          points: v.drawPoints,
          boosted: i18n.points(f.boostedDrawMilli),
        });
  return [
    i18n.t('hunt:guide.task', { ...v, exampleTip: example.tip.join(',') }),
    i18n.t('hunt:guide.score', v),
    i18n.t('hunt:guide.example', {
      target: example.target.join(', '),
      tip: example.tip.join(', '),
      offs: example.offs.join(' + '),
      off: example.off,
      score: formatScore(example.score, i18n.locale),
    }),
    i18n.t('hunt:guide.draw', v),
    i18n.t(f.bonusPath.on ? 'hunt:guide.bonusOn' : 'hunt:guide.bonusOff', bonus),
    [
      i18n.t('hunt:guide.pays'),
      drawLine,
      i18n.t('hunt:guide.payBest', {
        points: v.perPercent,
        score: formatScore(example.score, i18n.locale),
        example: i18n.points(f.exampleBestMilli),
      }),
      i18n.t('hunt:guide.payTime', {
        points: i18n.points(f.time.milli),
        interval: duration(i18n, f.time.intervalSeconds),
        gap: duration(i18n, f.time.maxGapSeconds),
      }),
    ].join('\n'),
    i18n.t('hunt:guide.round'),
  ].join('\n\n');
}

/** The hunt channel's first post of a round: the short version, and where the long one is. */
export function huntIntro(i18n: Translator, f: HuntFacts, round: number): string {
  return i18n.t('hunt:post.intro', { ...values(i18n, f), round });
}

/** `/hunt status`'s first line: what the task is and how a tip is scored. */
export function huntTask(i18n: Translator, f: HuntFacts): string {
  return i18n.t('hunt:status.task', values(i18n, f));
}
