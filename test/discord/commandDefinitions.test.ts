import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import {
  deployedDefinitions,
  validateCommandDefinitions,
  validateMenuDefinitions,
} from '../../src/discord/commandLimits.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';

describe('slash command definitions', () => {
  it('fit every Discord limit, so deploy-commands cannot be refused', () => {
    expect(validateCommandDefinitions(COMMANDS.map((c) => c.data))).toEqual([]);
  });

  it('the context-menu entries fit Discord too, each with a German name, and a sixth user entry is refused', () => {
    const { menus } = deployedDefinitions(COMMANDS);
    expect(validateMenuDefinitions(menus)).toEqual([]);
    expect(menus.filter((m) => !m.name_localizations?.de)).toEqual([]);
    const [first] = menus;
    if (!first) throw new Error('no menu entries');
    const six = Array.from({ length: 6 }, (_, i) => ({ ...first, name: `Entry ${i}` }));
    expect(validateMenuDefinitions(six)).toEqual(['6 user menu entries (max 5)']);
    expect(validateMenuDefinitions([{ ...first, name: 'x'.repeat(33) }])).toEqual([
      `menu "${'x'.repeat(33)}": name must be 1-32 characters`,
    ]);
  });

  it('every command, subcommand and option has a German name and description', () => {
    const missing: string[] = [];
    const walk = (
      where: string,
      o: {
        name: string;
        name_localizations?: unknown;
        description_localizations?: unknown;
        options?: unknown[];
      },
    ) => {
      const de = (o.name_localizations as Record<string, string> | undefined)?.de;
      if (!de || !(o.description_localizations as Record<string, string> | undefined)?.de)
        missing.push(`${where} ${o.name}`);
      for (const child of (o.options ?? []) as (typeof o)[]) walk(`${where} ${o.name}`, child);
    };
    for (const command of COMMANDS) walk('', command.data);
    expect(missing).toEqual([]);
    const cookies = COMMANDS.find((c) => c.data.name === 'cookies')?.data;
    expect(cookies?.name_localizations?.de).toBe('kekse');
  });

  it('checks localized names and descriptions by the same rules', () => {
    expect(
      validateCommandDefinitions([
        {
          name: 'cookies',
          description: 'ok',
          name_localizations: { de: 'Kekse Geben' },
          description_localizations: { de: 'x'.repeat(101) },
        },
      ]),
    ).toEqual([
      '/cookies [de]: name "Kekse Geben" must be 1-32 letters, digits, - _ or \'',
      '/cookies [de]: name "Kekse Geben" must be lower case',
      '/cookies [de]: description must be 1-100 characters (has 101)',
    ]);
  });

  it('admin commands are hidden from members by default_member_permissions', () => {
    const admin = COMMANDS.find((c) => c.data.name === 'admin');
    expect(admin?.access).toBe('admin');
    expect(admin?.data.default_member_permissions).toBe('32');
  });

  it('GIVEN an attachment option THEN it deploys, and fields only other options take are refused on it', () => {
    const upload = {
      type: ApplicationCommandOptionType.Attachment,
      name: 'image',
      description: 'A PNG',
      required: true,
    } as const;
    const command = defineCommand({
      name: 'upload',
      description: 'Takes a file',
      access: 'everyone',
      category: 'Test',
      handler: { run: async () => ({ content: 'ok' }) },
      options: [upload, { type: ApplicationCommandOptionType.Integer, name: 'x', description: 'Column' }],
    });
    expect(command.data.options?.[0]).toEqual(upload);
    expect(validateCommandDefinitions([command.data])).toEqual([]);
    const wrong = { ...upload, choices: [{ name: 'a', value: 'a' }], autocomplete: true, max_length: 5 };
    expect(
      validateCommandDefinitions([
        { name: 'upload', description: 'Takes a file', options: [wrong as never] },
      ]),
    ).toEqual([
      '/upload image: an option of type Attachment takes no choices',
      '/upload image: an option of type Attachment takes no autocomplete',
      '/upload image: an option of type Attachment takes no max_length',
    ]);
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
