import type * as z from 'zod/mini';
import { type FieldError, fieldError } from './discordErrors.js';

type Schema = z.ZodMiniType;
type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;
type Path = FieldError['path'];

/** Discord's answer to one field, carried through zod as the issue's message. */
interface Encoded {
  code: string;
  message: string;
}

/**
 * The problems Discord reports for a body its published schema refuses, with Discord's codes
 * (`BASE_TYPE_MAX_LENGTH: Must be 1024 or fewer in length.` …). A string or a list limited on
 * both sides is reported as Discord does, `BASE_TYPE_BAD_LENGTH: Must be between 1 and 5 in
 * length.`, which needs the other bound: `lengthBounds` knows it for every check of `schema`.
 */
export function specFieldErrors(schema: Schema, body: unknown): FieldError[] {
  indexBounds(schema);
  const result = schema.safeParse(body, { error: (issue) => JSON.stringify(discordCode(issue)) });
  return result.success ? [] : result.error.issues.flatMap((issue) => toFieldErrors(issue, []));
}

/** The other bound of each length check (a check knows only its own), by check instance. */
const lengthBounds = new WeakMap<object, { min?: number; max?: number }>();
const indexed = new WeakSet<object>();

interface Def {
  checks?: { _zod: { def: { check: string; minimum?: number; maximum?: number; length?: number } } }[];
  [key: string]: unknown;
}

function indexBounds(schema: Schema): void {
  if (indexed.has(schema)) return;
  indexed.add(schema);
  const def = schema._zod.def as unknown as Def;
  const bounds: { min?: number; max?: number } = {};
  for (const check of def.checks ?? []) {
    const { check: kind, minimum, maximum, length } = check._zod.def;
    if (kind === 'min_length') bounds.min = minimum;
    if (kind === 'max_length') bounds.max = maximum;
    if (kind === 'length_equals') bounds.min = bounds.max = length;
  }
  for (const check of def.checks ?? []) lengthBounds.set(check, bounds);
  for (const child of childSchemas(def)) indexBounds(child);
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function childSchemas(def: Def): Schema[] {
  const children: unknown[] = [def.element, def.innerType, def.valueType, def.keyType, def.in, def.out];
  if (Array.isArray(def.options)) children.push(...def.options);
  if (def.type === 'object') children.push(...Object.values(def.shape as Record<string, unknown>));
  if (def.type === 'lazy') children.push((def.getter as () => unknown)());
  return children.filter(isSchema);
}

function discordCode(issue: RawIssue): Encoded {
  const input = issue.input;
  switch (issue.code) {
    case 'too_big':
    case 'too_small': {
      const bound = Number(issue.code === 'too_big' ? issue.maximum : issue.minimum);
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
        return issue.code === 'too_big' ? fieldError.numberMax([], bound) : fieldError.numberMin([], bound);
      }
      const { min, max } = lengthBounds.get(issue.inst ?? {}) ?? {};
      if (min !== undefined && min > 0 && max !== undefined) return fieldError.badLength([], min, max);
      return issue.code === 'too_big' ? fieldError.maxLength([], bound) : fieldError.minLength([], bound);
    }
    case 'invalid_type':
      if (input === undefined) return fieldError.required([]);
      return typeError(issue.expected, input);
    case 'invalid_value':
      return fieldError.choices([], issue.values);
    case 'invalid_format':
      if (issue.format === 'url') return { code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' };
      if (issue.format === 'datetime')
        return {
          code: 'DATE_TIME_TYPE_PARSE',
          message: `Could not parse ${String(input)}. Should be ISO8601.`,
        };
      return { code: 'NUMBER_TYPE_COERCE', message: `Value "${String(input)}" is not snowflake.` };
    default:
      return { code: 'BASE_TYPE_INVALID', message: 'Invalid value.' };
  }
}

/** Discord's conversion errors (the text of the string one is the fake's guess). */
function typeError(expected: string, input: unknown): Encoded {
  if (expected === 'object')
    return { code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' };
  if (expected === 'array')
    return { code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' };
  if (expected === 'number' || expected === 'int')
    return { code: 'NUMBER_TYPE_COERCE', message: `Value "${String(input)}" is not int.` };
  if (expected === 'boolean')
    return { code: 'BOOLEAN_TYPE_CONVERT', message: 'Must be either true or false.' };
  return { code: 'STRING_TYPE_CONVERT', message: 'Could not interpret value as string.' };
}

/**
 * One issue as Discord's field errors. A union (the spec lists every kind of component, every
 * kind of autocomplete choice) failed for each of its options: Discord answers for the option
 * the value meant, the one whose `type` matched and that failed least; when no option's `type`
 * matched, that the `type` must be one of theirs.
 */
function toFieldErrors(issue: Issue, prefix: Path): FieldError[] {
  const path = [...prefix, ...(issue.path as Path)];
  if (issue.code !== 'invalid_union') {
    const { code, message } = JSON.parse(issue.message) as Encoded;
    return [{ path, code, message }];
  }
  const meant = issue.errors
    .filter((option) => !option.some(isKindMismatch))
    .sort((a, b) => a.length - b.length)[0];
  if (meant) return meant.flatMap((inner) => toFieldErrors(inner, path));
  const kinds = issue.errors.flatMap((option) =>
    option.flatMap((inner) => (inner.code === 'invalid_value' && isTypeField(inner) ? inner.values : [])),
  );
  const message =
    kinds.length > 0
      ? `Value of field "type" must be one of (${kinds.map(String).join(', ')}).`
      : 'Value matches none of the allowed forms.';
  return [{ path, code: 'UNION_TYPE_CHOICES', message }];
}

function isTypeField(issue: Issue): boolean {
  return issue.path.length === 1 && issue.path[0] === 'type';
}

/** The option was for another kind of value: its `type` differs, or the value is not even its shape. */
function isKindMismatch(issue: Issue): boolean {
  if (issue.code === 'invalid_value' && isTypeField(issue)) return true;
  return issue.path.length === 0 && (issue.code === 'invalid_type' || issue.code === 'invalid_value');
}
