import i18next from 'i18next';
import de from '../utils/web/messages.de.json' with { type: 'json' };
import en from '../utils/web/messages.en.json' with { type: 'json' };

/**
 * The page's language, chosen by the server (the member's Discord language, else the
 * browser's) and written into `<html lang>`; its texts are the server's catalog, bundled.
 */
export const locale = document.documentElement.lang === 'de' ? 'de' : 'en';
const tag = locale === 'de' ? 'de-DE' : 'en-US';

const texts = i18next.createInstance();
void texts.init({
  resources: { en: { web: en }, de: { web: de } },
  lng: locale,
  fallbackLng: 'en',
  ns: ['web'],
  defaultNS: 'web',
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** A text of the page, with `{{placeholders}}` and plurals by `count`. */
export const t = (key: string, params: Record<string, unknown> = {}): string =>
  texts.t(key, params) as string;

const numbers = new Intl.NumberFormat(tag, { maximumFractionDigits: 3 });
/** A number as the page's language writes it (`1,000` / `1.000`). */
export const number = (value: number): string => numbers.format(value);
/** Place points with their unit: `1 point`, `12.5 points` / `12,5 Punkte`. */
export const points = (value: number): string => t('points', { count: value, amount: number(value) });
/** A date and time as the page's language writes it. */
export const dateTime = (at: string | number): string => new Date(at).toLocaleString(tag);
export const time = (at: string | number): string => new Date(at).toLocaleTimeString(tag);

/** A palette colour's name in the page's language (`colours.darkRed`), from its English name. */
export const colourName = (english: string): string =>
  t(`colours.${english.replace(/ (\w)/g, (_, c: string) => c.toUpperCase())}`, { defaultValue: english });
