import { AppError } from '../errors.js';
import { familyOf } from './componentIds.js';
import { handlerPath } from './defineCommand.js';
import type {
  Access,
  CommandContext,
  CommandHandler,
  CommandModule,
  ComponentHandler,
  CooldownSpec,
  DeferMode,
  Invocation,
  Reply,
  SanctionScope,
} from './types.js';

/** What the runtime needs to run one interaction: who may, whether to defer, the cooldown, the ban scope, the handler. */
export interface Route {
  access: Access;
  defer: DeferMode | null;
  cooldown: CooldownSpec | undefined;
  scope: SanctionScope | undefined;
  run: (ctx: CommandContext) => Promise<Reply>;
}

function handlerRoute(module: CommandModule, handler: CommandHandler): Route {
  return {
    access: handler.access ?? module.access,
    defer: handler.defer ?? null,
    cooldown: handler.cooldown,
    scope: handler.sanctionScope ?? module.sanctionScope,
    run: (ctx) => handler.run(ctx),
  };
}

/**
 * Where an interaction goes: a slash command by its name and subcommand path, an entry of a
 * member's menu by its name, a button, menu or form by the family of its custom id.
 */
export class RouteTable {
  readonly #byName: Map<string, CommandModule>;
  readonly #byFamily: Map<string, { module: CommandModule; component: ComponentHandler }>;
  readonly #byMenu: Map<string, { module: CommandModule; handler: CommandHandler }>;

  constructor(commands: readonly CommandModule[]) {
    this.#byName = new Map(commands.map((c) => [c.data.name, c]));
    this.#byFamily = new Map(
      commands.flatMap((module) => module.components.map((c) => [c.family, { module, component: c }])),
    );
    this.#byMenu = new Map(
      commands.flatMap((module) =>
        (module.userMenus ?? []).map((menu) => [menu.data.name, { module, handler: menu.handler }]),
      ),
    );
  }

  route(invocation: Invocation): Route {
    if (invocation.kind === 'context') {
      const found = this.#byMenu.get(invocation.commandName);
      if (!found)
        throw new AppError('UNSUPPORTED_INTERACTION', `no menu entry "${invocation.commandName}"`, {
          kind: 'context',
        });
      return handlerRoute(found.module, found.handler);
    }
    if (invocation.kind === 'command') {
      const module = this.#byName.get(invocation.commandName);
      if (!module) {
        throw new AppError('NOT_FOUND', `the command /${invocation.commandName} does not exist`, {
          messageKey: 'core:errors.NOT_FOUND_COMMAND',
          command: invocation.commandName,
        });
      }
      const path = handlerPath(invocation.group, invocation.subcommand);
      const handler: CommandHandler | undefined = module.handlers[path];
      if (!handler) throw new AppError('NOT_FOUND', `/${invocation.commandName} ${path} does not exist`);
      return handlerRoute(module, handler);
    }
    if (invocation.kind !== 'button' && invocation.kind !== 'select' && invocation.kind !== 'modal') {
      throw new AppError('UNSUPPORTED_INTERACTION', `no handler for a ${invocation.kind} interaction`, {
        kind: invocation.kind,
      });
    }
    const customId = invocation.customId ?? '';
    const found = this.#byFamily.get(familyOf(customId));
    if (!found && invocation.kind === 'modal') {
      throw new AppError('UNSUPPORTED_INTERACTION', `no form family for "${customId}"`, { kind: 'modal' });
    }
    if (!found) throw new AppError('STALE_CONTROL', `no component family for "${customId}"`);
    const { module, component } = found;
    return {
      access: component.access ?? module.access,
      defer: component.defer ? { ephemeral: true, update: true } : null,
      cooldown: component.cooldown,
      scope: component.sanctionScope ?? module.sanctionScope,
      run: (ctx) => component.run(ctx, customId),
    };
  }
}
