import type { Messages } from '../../../src/i18n/i18n.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };

/** The ledger texts in every language (namespace `ledger`); the keys of both files match (tested). */
export const LEDGER_MESSAGES: Messages = { en, de };
