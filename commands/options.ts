import type { z } from 'zod';
import { invalidInput, invalidInputText } from '../src/errors.js';
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
  throw invalidInput(`option "${option}": ${problem}`, {
    option,
    ...(named ? { problemKey: problem } : { problem }),
    messageKey: 'core:errors.invalidOption',
  });
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
