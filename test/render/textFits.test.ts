/**
 * No text in any image is cut off or overflows its box, in either language, with Discord's
 * longest names (32 characters) and seven-digit numbers. Every renderer draws its texts through
 * one TextPen (src/render/canvasTools.ts), which reports each text's measured width (node-canvas's
 * measureText, after any shrinking) and its box; the scenes are the ones `npm run shots` renders.
 *
 * What counts as cut: a text of the bot's own (a label, a number, a caption) must be drawn whole:
 * it may shrink a little (to 70 % of its size) but never end in "…". A member's name must be drawn
 * whole up to NAME_SHOWN_WHOLE (32) characters, Discord's limit for display names, whatever its
 * letters (the test includes 32 × "M"); only a longer name (possible from the console) may end in "…".
 */
import { createCanvas } from 'canvas';
import { describe, expect, it } from 'vitest';
import { imageScenes } from '../../shots/imageScenes.js';
import { type DrawnText, NAME_SHOWN_WHOLE, TextPen } from '../../src/render/canvasTools.js';

/** What is wrong with a drawn text, or null when it fits. */
function problem(t: DrawnText): string | null {
  if (t.width > t.box + 0.5) return `overflows: ${Math.ceil(t.width)} px in a ${Math.floor(t.box)} px box`;
  if (t.drawn === t.text) return null;
  if (t.kind === 'name' && [...t.text].length > NAME_SHOWN_WHOLE) return null;
  return `cut to "${t.drawn}"`;
}

describe('texts in images', () => {
  const scenes = imageScenes();

  it('GIVEN every image in both languages THEN the scenes cover both languages and long inputs', () => {
    expect(new Set(scenes.map((s) => s.locale))).toEqual(new Set(['en', 'de']));
    expect(scenes.length).toBeGreaterThan(20);
  });

  it.each(scenes.map((s) => [s.file, s] as const))(
    'GIVEN %s THEN every text it draws fits its box whole',
    async (_file, scene) => {
      const texts: DrawnText[] = [];
      await scene.render((text) => texts.push(text));
      expect(texts.length).toBeGreaterThan(0);
      const problems = texts.flatMap((t) => {
        const wrong = problem(t);
        return wrong ? [`"${t.text}" (${t.font}): ${wrong}`] : [];
      });
      expect(problems).toEqual([]);
    },
    30_000,
  );

  it('GIVEN a label longer than its box THEN the check reports it (the test can fail)', () => {
    const texts: DrawnText[] = [];
    const pen = new TextPen(createCanvas(200, 50).getContext('2d'), (t) => texts.push(t));
    pen.text('Gesammelt: 1.234.567× · 9.876.543 Kekse', 0, 20, 120, { size: 16, color: '#fff' });
    pen.name('Bartholomäus Maximilian Großmann', 0, 40, 60, { size: 16, color: '#fff' });
    pen.name(`${'W'.repeat(40)}`, 0, 40, 200, { size: 16, color: '#fff' });
    expect(problem(texts[0] as DrawnText)).toMatch(/^overflows/);
    expect(problem(texts[1] as DrawnText)).toMatch(/^cut to "Ba.*…"$/);
    expect(problem(texts[2] as DrawnText)).toBeNull();
  });
});
