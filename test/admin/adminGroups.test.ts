import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { adminFeature } from '../../commands/admin/index.js';
import { COMMANDS } from '../../commands/index.js';
import { assembleFeatures } from '../../src/features/assemble.js';
import type { AdminGroup, Feature } from '../../src/features/feature.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import type { ComponentHandler, Subcommand } from '../../src/interactions/types.js';

const subcommand = (name: string): Subcommand => ({
  definition: { type: ApplicationCommandOptionType.Subcommand, name, description: 'test' },
  run: async () => ({}),
});
const button = (family: string): ComponentHandler => ({ family, run: async () => ({}) });
const group = (name: string, components: ComponentHandler[] = []): AdminGroup => ({
  name,
  description: 'test',
  subcommands: [subcommand('go')],
  components,
});

describe('/admin from the features', () => {
  it("GIVEN the registry THEN /admin holds its own groups around every feature's, in the registry's order", () => {
    const admin = COMMANDS.find((c) => c.data.name === 'admin');
    expect(admin?.data.options?.map((o) => o.name)).toEqual([
      'cookies',
      'bakery',
      'vault',
      'place',
      'hunt',
      'privacy',
      'sanction',
      'economy',
      'cleanup',
    ]);
    // The button families keep their ids, so confirmations already posted still work.
    expect(admin?.components.map((c) => c.family)).toEqual([
      'place.rollback',
      'hunt.reroll',
      'privacy.admin_forget',
    ]);
    expect(admin?.handlers['place grant']?.access).toBe('moderator');
  });

  it("GIVEN a feature's admin group THEN its subcommands and buttons are routed by /admin, in that feature's place", () => {
    const other = defineCommand({
      name: 'other',
      description: 'test',
      access: 'everyone',
      category: 'Test',
      handler: { run: async () => ({}) },
    });
    const { commands } = assembleFeatures([
      { name: 'a', adminGroups: [group('alpha', [button('a.confirm')])] },
      adminFeature,
      { name: 'b', commands: [other], adminGroups: [group('beta')] },
    ]);
    expect(commands.map((c) => c.data.name)).toEqual(['admin', 'settings', 'other']);
    const admin = commands[0];
    expect(admin?.data.options?.map((o) => o.name)).toEqual(['alpha', 'beta', 'economy', 'cleanup']);
    expect(Object.keys(admin?.handlers ?? {})).toContain('beta go');
    expect(admin?.components.map((c) => c.family)).toEqual(['a.confirm']);
  });

  it.each<[string, Feature[], RegExp]>([
    [
      'one group name in two features',
      [
        { name: 'a', adminGroups: [group('alpha')] },
        { name: 'b', adminGroups: [group('alpha')] },
        adminFeature,
      ],
      /admin group alpha is declared twice/,
    ],
    [
      'a group named like its own',
      [{ name: 'a', adminGroups: [group('economy')] }, adminFeature],
      /admin group economy is declared twice/,
    ],
    [
      'a button family that another command has',
      [
        { name: 'a', adminGroups: [group('alpha', [button('a.confirm')])] },
        {
          name: 'b',
          commands: [
            defineCommand({
              name: 'b',
              description: 'test',
              access: 'everyone',
              category: 'Test',
              handler: { run: async () => ({}) },
              components: [button('a.confirm')],
            }),
          ],
        },
        adminFeature,
      ],
      /component family a\.confirm is declared twice/,
    ],
  ])('refuses %s at start-up', (_, features, message) => {
    expect(() => assembleFeatures(features)).toThrow(message);
  });
});
