import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ASSEMBLY } from '../../commands/index.js';
import { parseOptions } from '../../commands/options.js';
import { I18n } from '../../src/i18n/i18n.js';
import { describeAppError } from '../../src/interactions/errorReplies.js';
import { commandInvocation } from '../support/invocations.js';

const i18n = new I18n(ASSEMBLY.messages);

/** What a member reads when `options` do not fit `schema`, in English and German. */
function refusal(schema: z.ZodType, options: Record<string, string | number | boolean>): [string, string] {
  try {
    parseOptions(schema, commandInvocation({ commandName: 'test', options }));
  } catch (error) {
    const read = (locale: 'en' | 'de') =>
      describeAppError(error as never, ASSEMBLY.errorMessages, i18n.for(locale));
    return [read('en'), read('de')];
  }
  throw new Error('the options were accepted');
}

describe('an option the schema refuses', () => {
  it.each([
    [
      z.object({ n: z.number().int().max(5) }),
      { n: 9 },
      'Option "n": must be at most 5.',
      'Option „n“: darf höchstens 5 sein.',
    ],
    [
      z.object({ n: z.number().int().min(1) }),
      { n: 0 },
      'Option "n": must be at least 1.',
      'Option „n“: muss mindestens 1 sein.',
    ],
    [z.object({ n: z.number() }), {}, 'Option "n": is missing.', 'Option „n“: fehlt.'],
    [
      z.object({ side: z.enum(['heads', 'tails']) }),
      { side: 'edge' },
      'Option "side": must be one of: heads, tails.',
      'Option „side“: muss einer dieser Werte sein: heads, tails.',
    ],
    [
      z.object({ value: z.string().min(1) }),
      { value: '' },
      'Option "value": needs at least 1 character.',
      'Option „value“: braucht mindestens 1 Zeichen.',
    ],
  ])('GIVEN zod’s own problem THEN it is read in the member’s language (%#)', (schema, options, en, de) => {
    expect(refusal(schema, options)).toEqual([en, de]);
  });

  it('GIVEN a schema’s own catalog key THEN that text is read, in either language', () => {
    const [en, de] = refusal(z.object({ n: z.number().max(5, 'core:settings.atMost') }), { n: 9 });
    expect(en).toBe('Option "n": must be at most 5.');
    expect(de).toBe('Option „n“: darf höchstens 5 sein.');
  });
});
