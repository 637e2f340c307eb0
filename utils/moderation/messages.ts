import type { Messages } from '../../src/i18n/i18n.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };

/** The moderation texts in every language (namespace `moderation`); the keys of both files match (tested). */
export const MODERATION_MESSAGES: Messages = { en, de };
