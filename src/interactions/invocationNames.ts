import { familyOf } from './componentIds.js';
import type { Invocation } from './types.js';

/**
 * What a metric counts an interaction under: the command, or the family of a button, menu or
 * form (`button cookies.give`), never its id, whose fields (a prompt, a round) are new for
 * every message: one series each would grow without end.
 */
export function seriesOf(invocation: Invocation): string {
  if (invocation.kind === 'command') return describeInvocation(invocation);
  if (invocation.kind === 'context') return `context ${invocation.commandName}`;
  if (invocation.kind === 'other' || invocation.kind === 'autocomplete') return invocation.kind;
  return `${invocation.kind} ${familyOf(invocation.customId ?? '')}`;
}

/** An interaction as a log line names it: `/cookies give`, `button cookies.give:…`. */
export function describeInvocation(invocation: Invocation): string {
  if (invocation.kind !== 'command') return `${invocation.kind} ${invocation.customId}`;
  return `/${[invocation.commandName, invocation.group, invocation.subcommand].filter(Boolean).join(' ')}`;
}
