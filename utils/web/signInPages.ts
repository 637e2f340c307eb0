import type { Locale } from '../../src/i18n/i18n.js';
import { escapeHtml, webTexts } from './webText.js';

/** A small page in the canvas page's style, with no script (the sign-in pages and the public moderation log). */
export function page(locale: Locale, title: string, body: string): string {
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/place/app.css"></head>
<body class="signin"><main><h1>Neural Place</h1>
${body}
</main></body></html>`;
}

/**
 * What opening a sign-in link shows: a button. Only pressing it uses the link (Discord and other
 * link previewers fetch the URLs they see, and a GET that signed in would burn the link).
 */
export function signInPage(token: string, locale: Locale): string {
  const { t } = webTexts(locale);
  return page(
    locale,
    t('web:signIn.title'),
    `<form method="post" action="/place/login"><input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit" class="primary">${escapeHtml(t('web:signIn.button'))}</button></form>
<p class="muted">${escapeHtml(t('web:signIn.once'))}</p>`,
  );
}

/** A link that no longer signs in: what happened and what to do, with the way to the canvas. */
export function linkUsedPage(locale: Locale, reason: 'used' | 'denied' = 'used'): string {
  const { t } = webTexts(locale);
  const [what, next] =
    reason === 'used' ? ['signIn.used', 'signIn.what'] : ['signIn.denied', 'signIn.deniedWhat'];
  return page(
    locale,
    t('web:signIn.usedTitle'),
    `<p id="link-used" class="notice">${escapeHtml(t(`web:${what}`))}</p>
<p>${escapeHtml(t(`web:${next}`))}</p>
<p><a href="/place">${escapeHtml(t('web:signIn.view'))}</a></p>`,
  );
}

/**
 * The portal refused a browser: not signed in (how to sign in), or a member without the rights
 * the page needs (which ones), with the way to the canvas.
 */
export function portalRefusalPage(locale: Locale, why: 'signIn' | 'moderator' | 'admin'): string {
  const { t } = webTexts(locale);
  return page(
    locale,
    t('web:portal.title'),
    `<p id="portal-refused" class="notice">${escapeHtml(t(`web:portal.refused.${why}`))}</p>
<p>${escapeHtml(t(why === 'signIn' ? 'web:portal.refused.signInHow' : 'web:portal.refused.ask'))}</p>
<p><a href="/place">${escapeHtml(t('web:signIn.view'))}</a></p>`,
  );
}
