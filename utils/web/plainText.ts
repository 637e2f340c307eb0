/**
 * A line written for Discord (an audit line: mentions, timestamps, markdown) as a web page or a
 * spreadsheet shows it. Mentions are matched by any id, a pseudonym too (`<@former-…>`, what a
 * forgotten member's mentions became).
 */
const USER_MENTION = /<@!?([0-9A-Za-z-]+)>/g;

/** The member ids a line mentions, each once, in order. */
export function mentionedIds(text: string): string[] {
  return [...new Set([...text.matchAll(USER_MENTION)].map((m) => m[1] as string))];
}

/**
 * The line as plain text: `<@id>` becomes `@name` (the id where no name is known), `<@&id>`
 * `@&id`, `<#id>` `#id`, a `<t:seconds:style>` timestamp its ISO time, and `**`, `__`, `_`,
 * `*`, `~~` and backticks are dropped where Discord reads them as markup (an underscore inside
 * a word, as in `place_enabled`, stays).
 */
export function plainText(text: string, nameOf: (id: string) => string | undefined): string {
  // Markup first, names last: a member's name is shown as it is, underscores and all.
  return text
    .replace(/```(?:[a-z]+\n)?([\s\S]*?)```/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\*\*(.+?)\*\*/gs, '$1')
    .replace(/__(.+?)__/gs, '$1')
    .replace(/~~(.+?)~~/gs, '$1')
    .replace(/(?<![\p{L}\p{N}_*])\*(?![\s*])(.+?)(?<![\s*])\*(?![\p{L}\p{N}*])/gsu, '$1')
    .replace(/(?<![\p{L}\p{N}_])_(?![\s_])(.+?)(?<![\s_])_(?![\p{L}\p{N}_])/gsu, '$1')
    .replace(/<@&(\d+)>/g, '@&$1')
    .replace(/<#(\d+)>/g, '#$1')
    .replace(
      /<t:(-?\d{1,13})(?::[tTdDfFR])?>/g,
      (whole, seconds: string) => isoTime(Number(seconds)) ?? whole,
    )
    .replace(USER_MENTION, (_, id: string) => `@${nameOf(id) ?? id}`);
}

function isoTime(seconds: number): string | null {
  const at = new Date(seconds * 1000);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}
