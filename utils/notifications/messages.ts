import type { Messages } from '../../src/i18n/i18n.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };

/** The notification settings' texts in every language (namespace `notifications`). */
export const NOTIFICATIONS_MESSAGES: Messages = { en, de };
