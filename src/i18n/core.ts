import de from './core.de.json' with { type: 'json' };
import en from './core.en.json' with { type: 'json' };
import type { Messages } from './i18n.js';

/** Texts of the runtime itself (namespace `core`): amounts, the error path, settings. */
export const CORE_MESSAGES: Messages = { en, de };
