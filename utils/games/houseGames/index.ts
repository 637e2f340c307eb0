import type { Messages } from '../../../src/i18n/i18n.js';
import { blackjackGame } from './blackjack/index.js';
import { coinflipGame } from './coinflip/index.js';
import { diceGame } from './dice/index.js';
import type { HouseGame, InstantHouseGame } from './houseGame.js';
import { slotsGame } from './slots/index.js';

export type { EdgeCase, GameParams, HouseGame, InstantHouseGame, Played } from './houseGame.js';

/**
 * The house games, in the order /games lists them. A new game is its folder beside these
 * (rules, entry, texts) and one line here; every list of games is derived from this one.
 */
export const HOUSE_GAMES = [coinflipGame, diceGame, slotsGame, blackjackGame] as const;

export type GameName = (typeof HOUSE_GAMES)[number]['name'];
export type InstantGameName = Extract<(typeof HOUSE_GAMES)[number], { kind: 'instant' }>['name'];
export const GAME_NAMES = HOUSE_GAMES.map((game) => game.name) as [GameName, ...GameName[]];

export function houseGame(name: GameName): HouseGame {
  return HOUSE_GAMES.find((game) => game.name === name) as HouseGame;
}

export function instantGame(name: InstantGameName): InstantHouseGame {
  return houseGame(name) as InstantHouseGame;
}

export const INSTANT_GAMES: readonly InstantHouseGame[] = HOUSE_GAMES.filter(
  (game): game is (typeof HOUSE_GAMES)[number] & InstantHouseGame => game.kind === 'instant',
);

/** Every game's texts under its name, as the games namespace holds them (`games:dice.title`). */
export function houseGameMessages(): Messages {
  const each = (locale: 'en' | 'de') =>
    Object.fromEntries(HOUSE_GAMES.map((game) => [game.name, game.messages[locale]]));
  return { en: each('en'), de: each('de') };
}
