import { type Catalog, lookup, type Messages } from './i18n.js';

/** Localized names or descriptions as Discord's API types carry them. */
export type LocalizationMap = Partial<Record<string, string | null>> | null;

/** Anything Discord shows by a name and a description, with their localizations. */
export interface DiscordNamed {
  name: string;
  description: string;
  name_localizations?: LocalizationMap;
  description_localizations?: LocalizationMap;
}

function required(catalog: Catalog, path: string): string {
  const text = lookup(catalog, path);
  if (text === undefined) throw new Error(`missing text ${path}`);
  return text;
}

/**
 * The name and description of a command, subcommand or option from a feature's catalog
 * (`<key>.name`, `<key>.description`), with the German ones as Discord's localizations.
 * Discord keeps routing by the English name; members see their language.
 */
export function localized(messages: Messages, key: string) {
  const name = required(messages.en, `${key}.name`);
  const description = required(messages.en, `${key}.description`);
  const deName = lookup(messages.de, `${key}.name`);
  const deDescription = lookup(messages.de, `${key}.description`);
  return {
    name,
    description,
    ...(deName ? { name_localizations: { de: deName } } : {}),
    ...(deDescription ? { description_localizations: { de: deDescription } } : {}),
  };
}

/**
 * The name alone, for what Discord shows without a description (an entry on a member's context
 * menu), from `<key>.name`, with the German one as its localization.
 */
export function localizedName(messages: Messages, key: string) {
  const deName = lookup(messages.de, `${key}.name`);
  return {
    name: required(messages.en, `${key}.name`),
    ...(deName ? { name_localizations: { de: deName } } : {}),
  };
}
