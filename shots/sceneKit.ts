/** What the image scenes share: the scene's shape, the languages, a fixed date, long names. */
import { ASSEMBLY } from '../commands/index.js';
import { I18n, type Locale } from '../src/i18n/i18n.js';
import type { TextRecorder } from '../src/render/canvasTools.js';

/** One image the bot makes, rendered by its real render function from realistic data. */
export interface ImageScene {
  /** File name under `images/`. */
  file: string;
  title: string;
  locale: Locale;
  render(record?: TextRecorder): Promise<Buffer>;
}

export const i18n = new I18n(ASSEMBLY.messages);

export const LANGUAGES: { locale: Locale; label: string }[] = [
  { locale: 'en', label: 'English' },
  { locale: 'de', label: 'German' },
];

/** The date the scenes show. */
export const AT = new Date('2025-03-17T14:05:00Z');

/** Discord's longest display names (32 characters), with umlauts and wide letters. */
export const LONG_NAMES = [
  'Bartholomäus Maximilian Großmann',
  'Wolfgang Würstchenwächter-Müller',
  'MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM',
  'Genoveva von Hohenzollern-Weiß',
  'Xx_ShadowCookieDestroyer_2024_xX',
];
