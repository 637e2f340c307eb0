import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { validateCommandDefinitions } from '../../src/discord/commandLimits.js';

describe('slash command definitions', () => {
  it('fit every Discord limit, so deploy-commands cannot be refused', () => {
    expect(validateCommandDefinitions(COMMANDS.map((c) => c.data))).toEqual([]);
  });

  it('admin commands are hidden from members by default_member_permissions', () => {
    const admin = COMMANDS.find((c) => c.data.name === 'admin');
    expect(admin?.access).toBe('admin');
    expect(admin?.data.default_member_permissions).toBe('32');
  });

  it('catches the mistakes Discord would reject at deploy time', () => {
    const problems = validateCommandDefinitions([
      {
        name: 'Bad Name',
        description: 'x'.repeat(101),
        options: [
          { type: ApplicationCommandOptionType.String, name: 'opt', description: 'optional first' },
          {
            type: ApplicationCommandOptionType.Integer,
            name: 'req',
            description: 'then required',
            required: true,
          },
          {
            type: ApplicationCommandOptionType.String,
            name: 'pick',
            description: 'too many choices',
            choices: Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `v${i}` })),
          },
        ],
      },
      { name: 'dup', description: 'one' },
      { name: 'dup', description: 'two' },
    ]);
    expect(problems).toEqual([
      '/Bad Name: name "Bad Name" must be 1-32 letters, digits, - _ or \'',
      '/Bad Name: name "Bad Name" must be lower case',
      '/Bad Name: description must be 1-100 characters (has 101)',
      '/Bad Name req: required options must come before optional ones',
      '/Bad Name pick: 26 choices (max 25)',
      '/dup: defined twice',
    ]);
  });
});
