import { CORE_MESSAGES } from '../i18n/core.js';
import type { DiscordNamed } from '../i18n/definitions.js';
import { I18n, type Locale } from '../i18n/i18n.js';

/** The console's own texts (namespace `core`, `console.*`), apart from the bot's: a line may fail before any command runs. */
const texts = new I18n({ core: CORE_MESSAGES });

export function consoleText(locale: Locale, key: string, params: Record<string, unknown> = {}): string {
  return texts.for(locale).t(key, params);
}

/**
 * A console line that cannot run: a catalog key and its values, shown in the session's
 * language (the message is the English text, for logs and stack traces).
 */
export class ConsoleLineError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(consoleText('en', key, params));
  }

  in(locale: Locale): string {
    return consoleText(locale, this.key, this.params);
  }
}

/** A command's, subcommand's or option's name as a member of that language sees it (`/kekse`, `mitglied`). */
export function nameIn(
  definition: Pick<DiscordNamed, 'name' | 'name_localizations'>,
  locale: Locale,
): string {
  return definition.name_localizations?.[locale] ?? definition.name;
}
