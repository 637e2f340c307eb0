import type { RoleRefusal } from '../roles/memberRoles.js';
import { MEMBER_NAME, ROLE_NAME } from './consoleNames.js';
import { CONSOLE_REFUSALS } from './consoleRoles.js';
import { ConsoleLineError } from './consoleTexts.js';

/**
 * A role line: `!role MEMBER ROLE` and `!unrole MEMBER ROLE` (a moderator's hand),
 * `[as NAME] !roles [MEMBER]` (what they hold here), `!roles deny [REFUSAL]` and `!roles allow`
 * (whether Discord lets the bot change roles in this server).
 */
export type RoleLine =
  | { kind: 'role'; act: 'give' | 'take'; member: string; role: string }
  | { kind: 'role'; act: 'list'; member: string | null }
  | { kind: 'role'; act: 'deny'; refusal: RoleRefusal | null };

const HEADS = ['!role', '!unrole', '!roles'];

/** The line as a role line, or null when `head` is not one of theirs. */
export function parseRoleLine(head: string, tokens: string[], as: string | null): RoleLine | null {
  if (!HEADS.includes(head)) return null;
  const [first] = tokens;
  // Anyone may look at a member's roles; changing them is the server's business.
  if (head === '!roles' && first !== 'deny' && first !== 'allow') return listRoles(tokens, as);
  if (as) throw new ConsoleLineError('core:console.roleWithAs', { command: head });
  if (head === '!roles') return parseRoles(tokens);
  const [member = '', role = ''] = tokens;
  if (tokens.length !== 2 || !MEMBER_NAME.test(member) || !ROLE_NAME.test(role))
    throw new ConsoleLineError('core:console.roleNeeds', { command: head });
  return { kind: 'role', act: head === '!role' ? 'give' : 'take', member, role };
}

function parseRoles(tokens: string[]): RoleLine {
  const [first, second] = tokens;
  if (first === 'allow' && tokens.length === 1) return { kind: 'role', act: 'deny', refusal: null };
  if (first === 'deny' && tokens.length <= 2) {
    const refusal = CONSOLE_REFUSALS.find((r) => r === (second ?? 'missing_permission'));
    if (refusal) return { kind: 'role', act: 'deny', refusal };
  }
  throw rolesNeeds();
}

function listRoles(tokens: string[], as: string | null): RoleLine {
  const [member = as] = tokens;
  if (tokens.length > 1 || (member !== null && !MEMBER_NAME.test(member))) throw rolesNeeds();
  return { kind: 'role', act: 'list', member };
}

function rolesNeeds(): ConsoleLineError {
  return new ConsoleLineError('core:console.rolesNeeds', { refusals: CONSOLE_REFUSALS.join('|') });
}
