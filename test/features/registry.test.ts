import { describe, expect, it } from 'vitest';
import { ASSEMBLY, FEATURES } from '../../commands/index.js';
import { CORE_ERROR_MESSAGES, type ErrorCode, type ErrorMessage } from '../../src/errors.js';
import { assembleFeatures } from '../../src/features/assemble.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { defineNamedSettings, defineSettings, flagSetting } from '../../src/runtimeConfig/settings.js';
import { COOKIES_ERROR_MESSAGES } from '../../utils/cookies/errors.js';
import { GAMES_ERROR_MESSAGES } from '../../utils/games/errors.js';
import { MODERATION_ERROR_MESSAGES } from '../../utils/moderation/errors.js';
import { LEDGER_ERROR_MESSAGES } from '../../utils/money/ledger/errors.js';
import { AREA_ERROR_MESSAGES } from '../../utils/place/areas.js';
import { PRIVACY_ERROR_MESSAGES } from '../../utils/privacy/errors.js';
import { SHOP_ERROR_MESSAGES } from '../../utils/shop/errors.js';
import { VAULT_ERROR_MESSAGES } from '../../utils/vault/errors.js';

/**
 * Every registered error code with its message. The annotation makes `tsc` (part of npm test)
 * fail when a code is declared without a message; the test then checks the registry serves them.
 */
const EVERY_MESSAGE: { readonly [K in ErrorCode]: ErrorMessage } = {
  ...CORE_ERROR_MESSAGES,
  ...LEDGER_ERROR_MESSAGES,
  ...COOKIES_ERROR_MESSAGES,
  ...GAMES_ERROR_MESSAGES,
  ...VAULT_ERROR_MESSAGES,
  ...PRIVACY_ERROR_MESSAGES,
  ...MODERATION_ERROR_MESSAGES,
  ...AREA_ERROR_MESSAGES,
  ...SHOP_ERROR_MESSAGES,
};

const command = (name: string) =>
  defineCommand({
    name,
    description: 'test',
    access: 'everyone',
    category: 'Test',
    handler: { run: async () => ({}) },
  });

describe('the feature registry', () => {
  it('serves a message for every error code', () => {
    for (const code of Object.keys(EVERY_MESSAGE)) {
      expect(ASSEMBLY.errorMessages[code as ErrorCode], code).toBeTypeOf('function');
    }
  });

  it("combines the features' commands, settings and timers", () => {
    expect(ASSEMBLY.commands.map((c) => c.data.name)).toEqual([
      'help',
      'cookies',
      'games',
      'vault',
      'shop',
      'inventory',
      'trade',
      'poker',
      'place',
      'hunt',
      'privacy',
      'notifications',
      'admin',
      'settings',
    ]);
    expect(Object.keys(ASSEMBLY.settings)).toContain('cookies.give_max');
    expect(Object.keys(ASSEMBLY.settings)).toContain('admin.audit_channel');
    expect(FEATURES.map((f) => f.name)).toEqual([
      'help',
      'cookies',
      'games',
      'vault',
      'shop',
      'poker',
      'place',
      'hunt',
      'web',
      'privacy',
      'notifications',
      'moderation',
      'admin',
    ]);
  });

  it.each([
    ['two features with one name', [{ name: 'a' }, { name: 'a' }], /feature a is declared twice/],
    [
      'two features with one command name',
      [
        { name: 'a', commands: [command('x')] },
        { name: 'b', commands: [command('x')] },
      ],
      /command x is declared twice/,
    ],
    [
      'a setting declared for another feature',
      [{ name: 'a', settings: defineSettings('b', { flag: flagSetting('x', true) }) }],
      /setting b\.flag is declared for b, not a/,
    ],
    [
      'one setting key in two features',
      [
        { name: 'a', settings: defineNamedSettings('a', { pixel_cost: flagSetting('x', true) }) },
        { name: 'b', settings: defineNamedSettings('b', { pixel_cost: flagSetting('x', true) }) },
      ],
      /setting pixel_cost is declared twice/,
    ],
    [
      'an error code declared twice',
      [{ name: 'a', errors: { INVALID_INPUT: () => 'x' } }],
      /error code INVALID_INPUT is declared twice/,
    ],
  ])('refuses %s at start-up', (_, features, message) => {
    expect(() => assembleFeatures(features)).toThrow(message);
  });
});
