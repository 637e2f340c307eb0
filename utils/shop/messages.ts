import type { Messages } from '../../src/i18n/i18n.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };

/** The shop's and the trades' texts in every language (namespace `shop`); the keys of both files match (tested). */
export const SHOP_MESSAGES: Messages = { en, de };
