import type { Clock } from '../clock.js';
import type { Collections } from '../db/collections.js';
import { type Locale, resolveLocale, type Translator } from './i18n.js';

/** How long a process trusts the language it read before reading it again. */
const CACHE_MS = 60_000;

/**
 * The server's language where no interaction says it: the audit line of an action taken on the
 * web portal, for one. Discord sends a community server's preferred locale with every
 * interaction; the last one seen is kept (`server_languages`, one document per server), written
 * only when it changes, so any process, the web-only one included, speaks as the server does.
 */
export class ServerLanguage {
  readonly #known = new Map<string, Locale>();
  #read: { locale: Locale; at: number } | null = null;

  constructor(private readonly deps: { cols: Collections; clock: Clock }) {}

  /** Keeps a server's locale as an interaction reported it (none outside a server). */
  async remember(guildId: string | null, guildLocale: string | null): Promise<void> {
    if (!guildId || !guildLocale) return;
    const locale = resolveLocale(guildLocale);
    if (this.#known.get(guildId) === locale) return;
    await this.deps.cols.serverLanguages.updateOne(
      { _id: guildId },
      { $set: { locale, seenAt: this.deps.clock.now() } },
      { upsert: true },
    );
    this.#known.set(guildId, locale);
    this.#read = { locale, at: performance.now() };
  }

  /** The language of the server seen most recently; English before any interaction. */
  async current(): Promise<Locale> {
    if (this.#read && performance.now() - this.#read.at < CACHE_MS) return this.#read.locale;
    const [latest] = await this.deps.cols.serverLanguages.find({}).sort({ seenAt: -1 }).limit(1).toArray();
    const locale = resolveLocale(latest?.locale);
    this.#read = { locale, at: performance.now() };
    return locale;
  }
}

/** Texts in the server's language, for what the bot posts to its channels on the web's behalf. */
export async function serverTranslator(deps: {
  i18n: { for(locale: Locale): Translator };
  serverLanguage: ServerLanguage;
}): Promise<Translator> {
  return deps.i18n.for(await deps.serverLanguage.current());
}
