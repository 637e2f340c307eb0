/**
 * Discord's message markup as HTML, for the pictures of the bot's replies: mentions as
 * @name, #channel and @role, timestamps as the date text a member's client shows (the
 * console's wording), `**bold**`, `*italic*`, `__underline__`, `~~strike~~`, `` `code` ``,
 * `-# ` subtext lines, and emoji as Twemoji, the pictures Discord draws them with.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from '@twemoji/parser';

const TWEMOJI_DIR = path.dirname(createRequire(import.meta.url).resolve('@twemoji/svg/package.json'));
const emojiCache = new Map<string, string | null>();

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** The Twemoji picture of one emoji as a data URL; null when Twemoji has none (the text stays). */
function twemoji(codepoints: string): string | null {
  if (!emojiCache.has(codepoints)) {
    let url: string | null = null;
    try {
      const svg = readFileSync(path.join(TWEMOJI_DIR, `${codepoints}.svg`));
      url = `data:image/svg+xml;base64,${svg.toString('base64')}`;
    } catch {
      url = null;
    }
    emojiCache.set(codepoints, url);
  }
  return emojiCache.get(codepoints) ?? null;
}

/** Escaped text with its emoji as Twemoji pictures. */
export function withEmoji(text: string): string {
  let html = '';
  let at = 0;
  for (const entity of parse(text, { buildUrl: (codepoints) => codepoints })) {
    const [start, end] = entity.indices;
    const url = twemoji(entity.url);
    // Punctuation right after an emoji stays on its line, as Discord's text does.
    const glued = /^[.,;:!?)]+/.exec(text.slice(end))?.[0] ?? '';
    html += escapeHtml(text.slice(at, start));
    html += url
      ? `<span class="glued"><img class="emoji" alt="${escapeHtml(entity.text)}" src="${url}">${escapeHtml(glued)}</span>`
      : escapeHtml(entity.text + glued);
    at = end + glued.length;
  }
  return html + escapeHtml(text.slice(at));
}

/** Turns a mention or a timestamp into the text a member's client shows (the console's `plain`). */
export type PlainText = (markup: string) => string;

const TOKEN = /`[^`\n]+`|<@!?\d+>|<@&\d+>|<#\d+>|<t:-?\d+(?::[tTdDfFR])?>/g;
const SPAN = /\uE000(\d+)\uE001/g;

/**
 * A text with Discord's markup as HTML. Mentions, timestamps and code are set aside first, so
 * bold around a mention stays bold and nothing inside code is read as markup.
 */
export function markup(text: string, plain: PlainText): string {
  const spans: string[] = [];
  const kept = text.replace(TOKEN, (token) => {
    spans.push(tokenHtml(token, plain));
    return `\uE000${spans.length - 1}\uE001`;
  });
  const styled = withEmoji(kept)
    .replace(/\*\*(.+?)\*\*/gs, '<strong>$1</strong>')
    .replace(/__(.+?)__/gs, '<u>$1</u>')
    .replace(/~~(.+?)~~/gs, '<s>$1</s>')
    .replace(/(^|[^*\w])\*(?!\s)([^*\n]+?)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/^&gt; (.*)$/gm, '<span class="quote">$1</span>')
    .replace(/^-# (.*)$/gm, '<span class="subtext">$1</span>');
  return styled.replace(SPAN, (_, i: string) => spans[Number(i)] ?? '');
}

function tokenHtml(token: string, plain: PlainText): string {
  if (token.startsWith('`')) return `<code>${escapeHtml(token.slice(1, -1))}</code>`;
  const text = escapeHtml(plain(token));
  return token.startsWith('<t:')
    ? `<span class="time">${text}</span>`
    : `<span class="mention">${text}</span>`;
}
