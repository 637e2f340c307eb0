import { z } from 'zod';
import { INTEGER_TEXT } from '../interactions/optionText.js';
import { HttpError } from './contract.js';

/**
 * Strict, bounded parsing of what a client sends (docs/web.md, "Errors over HTTP"): the same rules
 * the console applies to slash-command options. A number in a query is decimal digits (an
 * optional minus) and nothing else: not empty, not `0x10`, not `1e3`, not ` 1`, not `1.0`; and
 * within the bounds the route names. A parameter sent twice, or one the route does not take,
 * is refused. Each refusal is a 400 that starts with the field's name.
 */
export function wholeNumber(min: number, max?: number) {
  const error = max === undefined ? `a whole number, ${min} or more` : `a whole number from ${min} to ${max}`;
  return z
    .string({ error })
    .refine((text) => {
      if (!INTEGER_TEXT.test(text)) return false;
      const value = Number(text);
      return Number.isSafeInteger(value) && value >= min && (max === undefined || value <= max);
    }, error)
    .transform(Number);
}

/** A query's parameters, each given at most once, none the route does not know. */
export function parseQuery<S extends z.ZodRawShape>(shape: S, query: unknown): z.infer<z.ZodObject<S>> {
  const given = (query ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(given)) {
    if (!Object.hasOwn(shape, name)) {
      const known = Object.keys(shape);
      throw badRequest(
        name,
        known.length === 0
          ? 'this route takes no parameters'
          : `not a parameter here (known: ${known.join(', ')})`,
      );
    }
    if (Array.isArray(value)) throw badRequest(name, 'given more than once; give it once');
  }
  return parseWith(z.object(shape).strict(), given);
}

/** A JSON body (or, with `name`, one header) by its schema. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, name?: string): T {
  const parsed = schema.safeParse(name === undefined ? (value ?? {}) : value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = [name, ...(issue?.path ?? [])].filter((p) => p !== undefined).join('.');
  throw badRequest(field || 'body', issue?.message ?? 'invalid');
}

function badRequest(field: string, problem: string): HttpError {
  return new HttpError('BAD_REQUEST', `${field.slice(0, 64)}: ${problem}`);
}

/** A URL's parameters as fastify reads a query: a parameter given twice is an array. */
export function searchParamsObject(params: URLSearchParams): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    result[name] = values.length === 1 ? (values[0] as string) : values;
  }
  return result;
}
