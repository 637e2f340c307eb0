import type { Messages } from '../../src/i18n/i18n.js';
import { houseGameMessages } from './houseGames/index.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };

const games = houseGameMessages();

/**
 * The games texts in every language (namespace `games`): the feature's own, and each house
 * game's from its folder under its name (`games:dice.title`). The keys of both languages match (tested).
 */
export const GAMES_MESSAGES: Messages = { en: { ...en, ...games.en }, de: { ...de, ...games.de } };
