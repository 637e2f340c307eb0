import { z } from 'zod';
import { AppError } from '../errors.js';

/** Discord refuses a custom id longer than this. */
export const MAX_CUSTOM_ID_LENGTH = 100;

const FAMILY = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+$/;

/** Fields of a component id: schemas that accept the field's text (strings, `z.coerce.number()`). */
export type ComponentShape = Record<string, z.ZodType>;

/**
 * Builds and parses the custom ids of one family of buttons or menus, such as
 * `cookies.give:<prompt>:<owner>`. The fields are validated both ways against the schema,
 * so a handler receives typed values and never splits strings; an id that does not parse
 * (older version, hand-made) is STALE_CONTROL. An id holds every field the handler needs
 * and nothing in memory, so buttons keep working after a restart.
 */
export interface ComponentId<S extends ComponentShape> {
  readonly family: string;
  build(fields: { [K in keyof S]: z.output<S[K]> }): string;
  parse(customId: string): { [K in keyof S]: z.output<S[K]> };
}

export function defineComponent<S extends ComponentShape>(family: string, shape: S): ComponentId<S> {
  if (!FAMILY.test(family)) throw new Error(`component family "${family}" must look like feature.action`);
  const keys = Object.keys(shape);
  const schema = z.object(shape);
  type Fields = { [K in keyof S]: z.output<S[K]> };
  return {
    family,
    build(fields) {
      const values = keys.map((key) => String((fields as Record<string, unknown>)[key]));
      const parsed = schema.safeParse(Object.fromEntries(keys.map((key, i) => [key, values[i]])));
      if (!parsed.success) {
        throw new Error(
          `${family}: cannot build an id from ${JSON.stringify(fields)}: ${parsed.error.message}`,
        );
      }
      const id = [family, ...values.map(encodeURIComponent)].join(':');
      if (id.length > MAX_CUSTOM_ID_LENGTH) {
        throw new Error(`${family}: id of ${id.length} characters exceeds Discord's ${MAX_CUSTOM_ID_LENGTH}`);
      }
      return id;
    },
    parse(customId) {
      const [head, ...parts] = customId.split(':');
      const stale = (why: string) =>
        new AppError('STALE_CONTROL', `${family}: ${why} in "${customId}"`, { family });
      if (head !== family) throw stale('another family');
      if (parts.length !== keys.length) throw stale(`${parts.length} fields instead of ${keys.length}`);
      let decoded: string[];
      try {
        decoded = parts.map((part) => decodeURIComponent(part));
      } catch {
        throw stale('bad escaping');
      }
      const parsed = schema.safeParse(Object.fromEntries(keys.map((key, i) => [key, decoded[i]])));
      if (!parsed.success) throw stale(parsed.error.issues[0]?.message ?? 'invalid field');
      return parsed.data as Fields;
    },
  };
}

/** The family part of any custom id (what the runtime routes by). */
export function familyOf(customId: string): string {
  const colon = customId.indexOf(':');
  return colon < 0 ? customId : customId.slice(0, colon);
}
