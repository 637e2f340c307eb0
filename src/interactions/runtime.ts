import { AppError } from '../../utils/errors.js';
import { accessFor, hasAccess, resolveActor } from './authority.js';
import { presentError } from './errorReplies.js';
import type {
  Access,
  BotDeps,
  CommandContext,
  CommandModule,
  ComponentHandler,
  DeferMode,
  Invocation,
  Reply,
  Responder,
} from './types.js';

/** Discord drops an interaction not answered within 3 s; defer well before that. */
const SAFETY_DEFER_MS = 2_000;

/** How an interaction ended: answered, refused with an expected error, or failed (with the logged ref). */
export type DispatchResult =
  | { outcome: 'ok' }
  | { outcome: 'refused'; code?: string }
  | { outcome: 'failed'; ref: string };

interface Route {
  module: CommandModule;
  access: Access;
  defer: DeferMode | null;
  run: (ctx: CommandContext) => Promise<Reply>;
}

/**
 * The one path every slash command and button takes, from Discord or the local console:
 * route → re-check authority → defer when slow → run → reply; and the one catch that turns
 * any failure into an ephemeral message (expected errors) or a reference (unexpected).
 */
export class InteractionRuntime {
  readonly #byName: Map<string, CommandModule>;
  readonly #inFlight = new Set<Promise<DispatchResult>>();
  #accepting = true;

  constructor(
    private readonly deps: BotDeps,
    readonly commands: readonly CommandModule[],
    private readonly options: { safetyDeferMs?: number } = {},
  ) {
    this.#byName = new Map(commands.map((c) => [c.data.name, c]));
  }

  /** Handles one interaction; never throws (failures become replies and log lines). */
  dispatch(invocation: Invocation, responder: Responder): Promise<DispatchResult> {
    if (!this.#accepting) {
      return responder
        .send({ ephemeral: true, content: '⏳ The bot is restarting. Try again in a moment.' })
        .then(
          () => ({ outcome: 'refused' as const }),
          () => ({ outcome: 'refused' as const }),
        );
    }
    const task = this.#handle(invocation, responder);
    this.#inFlight.add(task);
    return task.finally(() => this.#inFlight.delete(task));
  }

  /** Stops taking interactions and waits for those in flight (graceful shutdown). */
  async drain(): Promise<void> {
    this.#accepting = false;
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  async #handle(invocation: Invocation, responder: Responder): Promise<DispatchResult> {
    const { log } = this.deps;
    const started = performance.now();
    let safety: NodeJS.Timeout | undefined;
    try {
      const route = this.#route(invocation);
      const actor = resolveActor(invocation.user, invocation.roleIds, this.deps.config.authority);
      if (!hasAccess(actor, route.access)) {
        log.warn(
          {
            event: 'authority.refused',
            userId: actor.id,
            user: actor.name,
            command: describe(invocation),
            needs: route.access,
          },
          'refused an interaction for lack of authority',
        );
        throw new AppError('NOT_AUTHORIZED', `${describe(invocation)} needs ${route.access} rights`, {
          needs: route.access,
        });
      }
      // Awaited so shutdown drains it too; a failure here never fails the command.
      await this.deps.profiles.touch(invocation.user).catch((error: unknown) => {
        log.warn({ event: 'profiles.touch_failed', err: error }, 'could not record the member profile');
      });
      if (route.defer) await responder.defer(route.defer);
      const safetyMode: DeferMode =
        invocation.kind === 'command' ? { ephemeral: false } : { ephemeral: true, update: true };
      safety = setTimeout(() => {
        if (responder.state === 'fresh') responder.defer(safetyMode).catch(() => undefined);
      }, this.options.safetyDeferMs ?? SAFETY_DEFER_MS);
      const ctx: CommandContext = {
        deps: this.deps,
        invocation,
        actor,
        commands: this.commands,
        defer: async () => {
          if (responder.state === 'fresh') await responder.defer(route.defer ?? safetyMode);
        },
      };
      const reply = await route.run(ctx);
      clearTimeout(safety);
      await responder.send(reply);
      log.info(
        {
          event: 'interaction.handled',
          command: describe(invocation),
          userId: invocation.user.id,
          ms: Math.round(performance.now() - started),
        },
        'interaction handled',
      );
      return { outcome: 'ok' };
    } catch (error) {
      clearTimeout(safety);
      const ref = this.deps.rng.uuid().slice(0, 8).toUpperCase();
      const presented = presentError(error, ref);
      if (presented.expected) {
        log.info(
          { event: 'interaction.refused', command: describe(invocation), code: (error as AppError).code },
          'expected failure',
        );
      } else {
        log.error(
          {
            event: 'interaction.failed',
            ref,
            command: describe(invocation),
            userId: invocation.user.id,
            err: error,
          },
          'unexpected failure',
        );
      }
      await responder.send(presented.reply).catch((sendError: unknown) => {
        log.error(
          { event: 'interaction.reply_failed', ref, err: sendError },
          'could not send the error reply',
        );
      });
      return presented.expected
        ? { outcome: 'refused', code: (error as AppError).code }
        : { outcome: 'failed', ref };
    }
  }

  #route(invocation: Invocation): Route {
    const module = this.#byName.get(invocation.commandName);
    if (!module) throw new AppError('NOT_FOUND', `the command /${invocation.commandName} does not exist`);
    const commandAccess = accessFor(module, invocation);
    if (invocation.kind === 'command') {
      return {
        module,
        access: commandAccess,
        defer: module.defer?.(invocation) ?? null,
        run: (ctx) => module.execute(ctx),
      };
    }
    const [, action, ...args] = (invocation.customId ?? '').split(':');
    const handler: ComponentHandler | undefined = action ? module.components?.[action] : undefined;
    if (!handler) throw new AppError('NOT_FOUND', 'this control no longer works; run the command again');
    return {
      module,
      access: handler.access ?? commandAccess,
      defer: handler.defer ? { ephemeral: true, update: true } : null,
      run: (ctx) => handler.run(ctx, args),
    };
  }
}

function describe(invocation: Invocation): string {
  if (invocation.kind !== 'command') return `${invocation.kind} ${invocation.customId}`;
  return `/${[invocation.commandName, invocation.group, invocation.subcommand].filter(Boolean).join(' ')}`;
}
