import { MEMBER_NAME } from './consoleNames.js';
import { ConsoleLineError } from './consoleTexts.js';

/**
 * The lines of Discord's forms and context menus: `[as NAME] !submit box:value …` (or
 * `!submit VALUE` for a form of one box) fills in the last form shown, and
 * `[as NAME] !app "MENU ENTRY" MEMBER` uses an entry of the member's context menu (right click
 * › Apps) on MEMBER.
 */
export type FormLine =
  | { kind: 'submit'; as: string | null; fields: Map<string, string>; value: string | null }
  | { kind: 'app'; as: string | null; entry: string; member: string };

/** The line as a form or menu line, or null when `head` is neither. */
export function parseFormLine(head: string, tokens: string[], as: string | null): FormLine | null {
  if (head === '!app') {
    const [entry = '', member = ''] = tokens;
    if (tokens.length !== 2 || entry.trim() === '' || !MEMBER_NAME.test(member))
      throw new ConsoleLineError('core:console.appNeeds');
    return { kind: 'app', as, entry, member };
  }
  if (head !== '!submit') return null;
  const fields = new Map<string, string>();
  const loose: string[] = [];
  for (const token of tokens) {
    const colon = token.indexOf(':');
    if (colon > 0) fields.set(token.slice(0, colon), token.slice(colon + 1));
    else loose.push(token);
  }
  if (fields.size === 0 && loose.length === 1) return { kind: 'submit', as, fields, value: loose[0] ?? '' };
  if (loose.length > 0 || fields.size === 0) throw new ConsoleLineError('core:console.submitNeeds');
  return { kind: 'submit', as, fields, value: null };
}
