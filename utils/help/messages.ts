import type { Messages } from '../../src/i18n/i18n.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };

/** The help texts in every language (namespace `help`); the keys of both files match (tested). */
export const HELP_MESSAGES: Messages = { en, de };
