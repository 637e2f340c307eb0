import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { ACTIONS } from '../../sim/behaviours.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { GAME_NAMES, HOUSE_GAMES } from '../../utils/games/houseGames/index.js';
import { GAMES_MESSAGES } from '../../utils/games/messages.js';

/**
 * A house game is its folder and its line in HOUSE_GAMES (CONTRIBUTING, "Add a house game").
 * Everything that lists games derives its list from there; these checks fail on a game that
 * one of them would miss: its subcommand, its texts, its edge rows, verify-round, the
 * simulation, the vault's quote.
 */
const SEEDS = { serverSeed: 'registry', memberSeed: 'registry', nonce: 7 };
const text = (locale: 'en' | 'de', path: string) =>
  path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], GAMES_MESSAGES[locale]);

describe('the house games', () => {
  it.each(HOUSE_GAMES.map((game) => [game.name, game] as const))(
    'GIVEN %s THEN /games has its subcommand, both languages have its texts, and it has edge rows',
    (name, game) => {
      const games = ASSEMBLY.commands.find((c) => c.data.name === 'games');
      const subcommands = (games?.data.options ?? []).map((o) => o.name);
      expect(subcommands).toContain(text('en', `${name}.command.name`));
      for (const locale of ['en', 'de'] as const) {
        for (const key of ['command.name', 'command.description', 'short', 'title']) {
          expect(text(locale, `${name}.${key}`), `${locale}: games:${name}.${key}`).toBeTypeOf('string');
        }
      }
      expect(game.edgeCases.length).toBeGreaterThan(0);
    },
  );

  it('GIVEN every game THEN verify-round recomputes it from its seeds with its default choices', () => {
    for (const game of HOUSE_GAMES) {
      const params = game.params.parse({ ...('defaults' in game ? game.defaults : {}) });
      const once = game.recompute(SEEDS, 100, params as Record<string, string | number>);
      expect(once.length, game.name).toBeGreaterThan(0);
      expect(game.recompute(SEEDS, 100, params as Record<string, string | number>)).toBe(once);
    }
  });

  it('GIVEN the simulation THEN it can play every game, and some simulated member does', () => {
    const behaviours = JSON.parse(readFileSync(join(PROJECT_ROOT, 'sim/behaviours.json'), 'utf8')) as {
      archetypes: { rates: Record<string, number> }[];
    };
    for (const name of GAME_NAMES) {
      expect(ACTIONS).toContain(name);
      expect(
        behaviours.archetypes.some((a) => (a.rates[name] ?? 0) > 0),
        `a simulated member plays ${name}`,
      ).toBe(true);
    }
  });
});
