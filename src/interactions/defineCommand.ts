import {
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { z } from 'zod';
import type { Locale } from '../i18n/i18n.js';
import type { ComponentId, ComponentShape } from './componentIds.js';
import type {
  Access,
  CommandContext,
  CommandHandler,
  CommandModule,
  ComponentHandler,
  Reply,
  SanctionScope,
  Subcommand,
  UserMenuCommand,
} from './types.js';

/** Discord's localized names and descriptions (see `localized` in src/i18n/definitions.ts). */
interface Localizations {
  name_localizations?: Partial<Record<Locale, string>>;
  description_localizations?: Partial<Record<Locale, string>>;
}

interface CommandBase extends Localizations {
  name: string;
  description: string;
  access: Access;
  /** A member banned in this scope is refused every subcommand and component (unless one names its own). */
  sanctionScope?: SanctionScope;
  category: string;
  /** Hidden from members without these permissions in Discord's client (the runtime still re-checks). */
  defaultMemberPermissions?: string;
  components?: readonly ComponentHandler[];
  /** Its entries on members' context menus (`defineUserMenu`). */
  userMenus?: readonly UserMenuCommand[];
}

type CommandShape =
  | (CommandBase & { handler: CommandHandler; options?: APIApplicationCommandOption[] })
  | (CommandBase & {
      subcommands?: readonly Subcommand[];
      groups?: readonly ({
        name: string;
        description: string;
        subcommands: readonly Subcommand[];
      } & Localizations)[];
    });

/**
 * A slash command from its parts: each subcommand (one file each) brings its definition and
 * its handler, so the definition Discord sees and the routing table cannot disagree.
 */
export function defineCommand(shape: CommandShape): CommandModule {
  const data: RESTPostAPIChatInputApplicationCommandsJSONBody = {
    name: shape.name,
    description: shape.description,
    ...localizationsOf(shape),
    contexts: [InteractionContextType.Guild],
    ...(shape.defaultMemberPermissions ? { default_member_permissions: shape.defaultMemberPermissions } : {}),
  };
  const handlers: Record<string, CommandHandler> = {};
  if ('handler' in shape) {
    handlers[''] = shape.handler;
    if (shape.options) data.options = shape.options;
  } else {
    const options: APIApplicationCommandOption[] = [];
    for (const sub of shape.subcommands ?? []) {
      options.push(sub.definition);
      handlers[sub.definition.name] = sub;
    }
    for (const group of shape.groups ?? []) {
      options.push({
        type: ApplicationCommandOptionType.SubcommandGroup,
        name: group.name,
        description: group.description,
        ...localizationsOf(group),
        options: group.subcommands.map((sub) => sub.definition),
      });
      for (const sub of group.subcommands) handlers[`${group.name} ${sub.definition.name}`] = sub;
    }
    data.options = options;
  }
  return {
    data,
    access: shape.access,
    ...(shape.sanctionScope ? { sanctionScope: shape.sanctionScope } : {}),
    category: shape.category,
    handlers,
    components: shape.components ?? [],
    ...(shape.userMenus ? { userMenus: shape.userMenus } : {}),
  };
}

function localizationsOf(shape: Localizations): Localizations {
  return {
    ...(shape.name_localizations ? { name_localizations: shape.name_localizations } : {}),
    ...(shape.description_localizations
      ? { description_localizations: shape.description_localizations }
      : {}),
  };
}

/**
 * An entry on members' context menus that runs `handler` (a slash command's) with the member
 * it was used on as the option `targetOption`. Its name is what the menu shows: capitals and
 * spaces allowed, at most 32 characters.
 */
export function defineUserMenu(shape: {
  name: string;
  name_localizations?: Partial<Record<Locale, string>>;
  handler: CommandHandler;
  targetOption: string;
}): UserMenuCommand {
  const { handler, targetOption } = shape;
  return {
    data: {
      type: ApplicationCommandType.User,
      name: shape.name,
      ...(shape.name_localizations ? { name_localizations: shape.name_localizations } : {}),
      contexts: [InteractionContextType.Guild],
    },
    handler: {
      ...handler,
      run: (ctx) => {
        const { invocation } = ctx;
        const options = { ...invocation.options, [targetOption]: invocation.targetId ?? '' };
        return handler.run({ ...ctx, invocation: { ...invocation, options } });
      },
    },
  };
}

/** A button or menu handler typed by its id's schema. */
export function defineComponentHandler<S extends ComponentShape>(
  id: ComponentId<S>,
  handler: {
    access?: Access;
    defer?: boolean;
    sanctionScope?: SanctionScope;
    run(ctx: CommandContext, fields: { [K in keyof S]: z.output<S[K]> }): Promise<Reply>;
  },
): ComponentHandler {
  return {
    family: id.family,
    ...(handler.access ? { access: handler.access } : {}),
    ...(handler.defer ? { defer: handler.defer } : {}),
    ...(handler.sanctionScope ? { sanctionScope: handler.sanctionScope } : {}),
    run: (ctx, customId) => handler.run(ctx, id.parse(customId)),
  };
}

/** The handler path of an invocation: '' for a plain command, 'give', or 'runtime show'. */
export function handlerPath(group: string | null, subcommand: string | null): string {
  return [group, subcommand].filter(Boolean).join(' ');
}
