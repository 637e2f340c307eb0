import i18next, { type i18n as I18next } from 'i18next';
import { isPseudonym } from '../privacy/pseudonym.js';

/** The languages the bot speaks. English is the fallback for every other locale. */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

/** A catalog: nested keys to texts (i18next JSON v4: plurals as `key_one` / `key_other`). */
export type Catalog = { [key: string]: string | Catalog };

/** One namespace's texts in every language (a feature's `messages.en.json` and `.de.json`). */
export type Messages = Record<Locale, Catalog>;

/**
 * Discord sends the member's client language (`en-US`, `de`, `fr`, ...) and the server's
 * preferred one. The member's wins when the bot speaks it, then the server's, then English.
 */
export function resolveLocale(...candidates: (string | null | undefined)[]): Locale {
  for (const candidate of candidates) {
    const language = candidate?.toLowerCase().split(/[-_.]/)[0];
    const known = LOCALES.find((l) => l === language);
    if (known) return known;
  }
  return 'en';
}

/**
 * The languages a browser asks for (`Accept-Language: de-DE,de;q=0.9,en;q=0.8`), most wanted
 * first.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => l.tag !== '' && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((l) => l.tag);
}

/** The language an HTTP request asks for by its `Accept-Language`, else English. */
export function requestLocale(acceptLanguage: string | undefined): Locale {
  return resolveLocale(...acceptedLanguages(acceptLanguage));
}

/** Texts and numbers in one language. */
export interface Translator {
  readonly locale: Locale;
  /** `namespace:key`, with `{{placeholders}}`, `{{n, number}}` and plurals by `count`. */
  t(key: string, params?: Record<string, unknown>): string;
  number(value: number): string;
  /** `1,234 🍪` / `1.234 🍪`. */
  cookies(amount: number): string;
  /** Place points from milli-points: `12.5 points` / `12,5 Punkte`. */
  points(milli: number): string;
  /**
   * A member in a text: their mention, or "a former member" for one forgotten on request, in
   * the grammatical case the sentence needs (German: "von einem ehemaligen Mitglied gemalt").
   */
  member(id: string, grammaticalCase?: 'nominative' | 'dative'): string;
}

/**
 * The bot's texts: one i18next instance over every namespace (core, ledger, each feature),
 * loaded once at start-up, synchronously. Numbers are formatted by `Intl` in the language.
 */
export class I18n {
  readonly #i18next: I18next;
  readonly #translators = new Map<Locale, Translator>();

  constructor(namespaces: Record<string, Messages>) {
    const resources = Object.fromEntries(
      LOCALES.map((locale) => [
        locale,
        Object.fromEntries(Object.entries(namespaces).map(([ns, messages]) => [ns, messages[locale]])),
      ]),
    );
    this.#i18next = i18next.createInstance();
    void this.#i18next.init({
      resources,
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: [...LOCALES],
      ns: Object.keys(namespaces),
      defaultNS: 'core',
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }

  for(locale: Locale): Translator {
    const known = this.#translators.get(locale);
    if (known) return known;
    const t = this.#i18next.getFixedT(locale);
    const numbers = new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-US', { maximumFractionDigits: 3 });
    const translator: Translator = {
      locale,
      t: (key, params) => t(key, params ?? {}) as string,
      number: (value) => numbers.format(value),
      cookies: (amount) =>
        t('core:amount.cookies', { count: amount, amount: numbers.format(amount) }) as string,
      points: (milli) =>
        t('core:amount.points', { count: milli / 1000, amount: numbers.format(milli / 1000) }) as string,
      member: (id, grammaticalCase = 'nominative') =>
        isPseudonym(id) ? (t(`core:formerMember.${grammaticalCase}`) as string) : `<@${id}>`,
    };
    this.#translators.set(locale, translator);
    return translator;
  }

  /** Whether `key` has a text in `locale` (for optional texts such as help categories). */
  has(locale: Locale, key: string): boolean {
    return this.#i18next.exists(key, { lng: locale, fallbackLng: false });
  }
}

/** A text of a catalog by dotted path, without interpolation (command definitions at load time). */
export function lookup(catalog: Catalog, path: string): string | undefined {
  let node: string | Catalog | undefined = catalog;
  for (const part of path.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}
