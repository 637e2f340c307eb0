import type { FastifyRequest } from 'fastify';
import {
  acceptedLanguages,
  I18n,
  type Locale,
  type Messages,
  resolveLocale,
  type Translator,
} from '../../src/i18n/i18n.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };

/**
 * The web page's own texts (namespace `web`), served in the page and bundled into its script;
 * not part of the bot's catalogs, since Discord never shows them. Keys match in both files (tested).
 */
export const WEB_MESSAGES: Messages = { en, de };

const texts = new I18n({ web: WEB_MESSAGES });

/** The page's texts in one language: `t('signIn.used')`. */
export function webTexts(locale: Locale): Translator {
  return texts.for(locale);
}

/**
 * The language a page speaks: the member's Discord language when it is known (the link or
 * session was made from Discord), else the browser's, else English.
 */
export function pageLocale(request: FastifyRequest, memberLocale?: string): Locale {
  return resolveLocale(memberLocale, ...acceptedLanguages(request.headers['accept-language']));
}

/** Whether the request is a browser opening a page (not a script asking for JSON). */
export function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** Text made safe for HTML (element content and quoted attributes). */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
