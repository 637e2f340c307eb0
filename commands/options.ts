import type { z } from 'zod';
import { invalidInput, invalidInputText } from '../src/errors.js';
import type { Translator } from '../src/i18n/i18n.js';
import type { Invocation } from '../src/interactions/types.js';
import { snowflake } from '../src/snowflake.js';

/** Parses a command's options with its zod schema; a bad value becomes INVALID_INPUT naming the option. */
export function parseOptions<T extends z.ZodType>(schema: T, invocation: Invocation): z.output<T> {
  const parsed = schema.safeParse(invocation.options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const option = issue?.path.join('.') || 'options';
  const problem = issue?.message ?? 'invalid';
  // A schema may name its problem by a catalog key (`games:errors.seedFormat`): read in the member's language.
  const named = /^[a-z]+:[\w.]+$/.test(problem);
  const given = issue?.path.length === 1 ? invocation.options[String(issue.path[0])] : undefined;
  // Zod's own English messages ("Too small: …") become a catalog text; a schema's own words stay.
  const zodDefault = /^(Invalid|Too (small|big))\b/.test(problem);
  // A named problem reads the issue's numbers too (`{{max}}`).
  const zod = issue ? zodProblem(issue, given) : {};
  const problemKey = named ? { ...zod, problemKey: problem } : zodDefault ? zod : {};
  throw invalidInput(`option "${option}": ${problem}`, {
    option,
    problem,
    ...problemKey,
    messageKey: 'core:errors.invalidOption',
  });
}

/** Zod's own problem (English only) as a text of the core catalog, read in the member's language. */
function zodProblem(issue: z.core.$ZodIssue, given: unknown): Record<string, unknown> {
  switch (issue.code) {
    case 'invalid_type':
      return { problemKey: given === undefined ? 'core:options.missing' : 'core:options.wrongType' };
    case 'too_small':
      return issue.origin === 'string'
        ? { problemKey: 'core:options.tooShort', min: Number(issue.minimum), count: Number(issue.minimum) }
        : { problemKey: 'core:options.atLeast', min: Number(issue.minimum) };
    case 'too_big':
      return issue.origin === 'string'
        ? { problemKey: 'core:options.tooLong', max: Number(issue.maximum), count: Number(issue.maximum) }
        : { problemKey: 'core:options.atMost', max: Number(issue.maximum) };
    case 'invalid_value':
      return { problemKey: 'core:options.oneOf', list: issue.values.map(String).join(', ') };
    case 'invalid_format':
      return { problemKey: 'core:options.format' };
    default:
      return {};
  }
}

/** A user option: Discord sends the member's id. */
export const memberOption = snowflake.describe('a member');

export function mention(userId: string): string {
  return `<@${userId}>`;
}

/** Bots (the bot itself, other apps) hold no Cookies: a give or a robbery aimed at one is refused. */
export function refuseBot(invocation: Invocation, userId: string): void {
  if (invocation.bots?.includes(userId)) {
    throw invalidInputText(`${userId} is a bot`, 'core:errors.botMember', { userId });
  }
}

/** Discord permissions by the names its client shows in the member's language. */
export function permissionList(names: readonly string[], i18n: Translator): string {
  const words = names.map((name) => i18n.t(`core:permissions.${name}`));
  return new Intl.ListFormat(i18n.locale, { style: 'long', type: 'conjunction' }).format(words);
}
