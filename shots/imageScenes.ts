/**
 * Every image the bot draws, as scenes: the real render functions fed with realistic data, in
 * both languages, with long names and seven-digit numbers. `npm run shots` writes each scene to
 * a file; test/render/textFits.test.ts renders the same scenes with a text recorder and fails
 * when any text is cut or overflows its box.
 */
import { canvasScenes } from './canvasScenes.js';
import { economyScenes } from './economyScenes.js';
import { leaderboardScenes, profileScenes } from './memberScenes.js';
import type { ImageScene } from './sceneKit.js';

export type { ImageScene } from './sceneKit.js';

/** Every image the bot makes. */
export function imageScenes(): ImageScene[] {
  return [...profileScenes(), ...leaderboardScenes(), ...canvasScenes(), ...economyScenes()];
}
