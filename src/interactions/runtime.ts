import { isDatabaseUnavailable } from '../db/databaseHealth.js';
import { AppError, databaseUnavailable, type ErrorCode, type ErrorMessage } from '../errors.js';
import { resolveLocale, type Translator } from '../i18n/i18n.js';
import { metrics } from '../metrics.js';
import { inServer } from '../runtimeConfig/serverContext.js';
import { hasAccess, resolveActor } from './authority.js';
import { handlerPath } from './defineCommand.js';
import { presentError } from './errorReplies.js';
import { describeInvocation as describe, seriesOf } from './invocationNames.js';
import { layOut } from './layout.js';
import { type Route, RouteTable } from './routes.js';
import type {
  Actor,
  AutocompleteChoice,
  BotDeps,
  CommandContext,
  CommandModule,
  DeferMode,
  Invocation,
  Reply,
  Responder,
  SanctionScope,
  SentMessage,
} from './types.js';

/** Discord shows at most 25 autocomplete choices. */
const MAX_CHOICES = 25;

/** What the runtime serves: the commands, and the messages of every error code. */
export interface RuntimeCatalog {
  commands: readonly CommandModule[];
  errorMessages: Readonly<Partial<Record<ErrorCode, ErrorMessage>>>;
  /**
   * Refuses a member before anything of theirs runs (throws an AppError); the features'
   * `refuseActor`, told the sanction scope of what the member is doing (none: reading, settings).
   */
  refuseActor?(deps: BotDeps, actorId: string, scope?: SanctionScope): Promise<void>;
}

/** Discord drops an interaction not answered within 3 s; defer well before that. */
const SAFETY_DEFER_MS = 2_000;

/** How an interaction ended: answered, refused with an expected error, or failed (with the logged ref). */
export type DispatchResult =
  | { outcome: 'ok' }
  | { outcome: 'refused'; code?: string }
  | { outcome: 'failed'; ref: string };

/**
 * The one path every slash command and button takes, from Discord or the local console:
 * route → re-check authority → defer when slow → run → reply; and the one catch that turns
 * any failure into an ephemeral message (expected errors) or a reference (unexpected).
 */
export class InteractionRuntime {
  readonly #byName: Map<string, CommandModule>;
  readonly #routes: RouteTable;
  readonly #inFlight = new Set<Promise<DispatchResult>>();
  readonly commands: readonly CommandModule[];
  #accepting = true;

  constructor(
    private readonly deps: BotDeps,
    private readonly catalog: RuntimeCatalog,
    private readonly options: { safetyDeferMs?: number } = {},
  ) {
    this.commands = catalog.commands;
    this.#byName = new Map(this.commands.map((c) => [c.data.name, c]));
    this.#routes = new RouteTable(this.commands);
  }

  /**
   * Suggestions for the option a member is typing; never throws (a failure or a member
   * without access gets no suggestions, and is logged).
   */
  async complete(invocation: Invocation): Promise<AutocompleteChoice[]> {
    try {
      const module = this.#byName.get(invocation.commandName);
      const handler = module?.handlers[handlerPath(invocation.group, invocation.subcommand)];
      const focused = invocation.focused;
      const suggest = focused ? handler?.autocomplete?.[focused.name] : undefined;
      if (!module || !handler || !focused || !suggest || this.deps.health?.down) return [];
      const actor = this.#actor(invocation);
      if (!hasAccess(actor, handler.access ?? module.access)) return [];
      const choices = await inServer(invocation.guildId, () =>
        suggest(
          this.#context(invocation, actor, async () => {}),
          focused.value,
        ),
      );
      return choices.slice(0, MAX_CHOICES);
    } catch (error) {
      this.deps.log.error(
        { event: 'interaction.autocomplete_failed', command: describe(invocation), err: error },
        'autocomplete failed',
      );
      return [];
    }
  }

  /** Handles one interaction; never throws (failures become replies and log lines). */
  dispatch(invocation: Invocation, responder: Responder): Promise<DispatchResult> {
    if (!this.#accepting) {
      return responder
        .send({ ephemeral: true, content: this.#languages(invocation).member.t('core:runtime.restarting') })
        .then(
          () => ({ outcome: 'refused' as const }),
          () => ({ outcome: 'refused' as const }),
        );
    }
    // Everything it does reads the settings of the server it came from (serverContext.ts).
    const task = inServer(invocation.guildId, () => this.#handle(invocation, responder));
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
    // From the first moment: the checks before the handler read the database too.
    const safetyMode: DeferMode =
      invocation.kind === 'command' ? { ephemeral: false } : { ephemeral: true, update: true };
    const safety = setTimeout(() => {
      if (responder.state === 'fresh') responder.defer(safetyMode).catch(() => undefined);
    }, this.options.safetyDeferMs ?? SAFETY_DEFER_MS);
    try {
      // The database is away: refused at the door at once, before anything waits on it.
      if (this.deps.health?.down) throw databaseUnavailable(false);
      const route = this.#routes.route(invocation);
      const actor = this.#actor(invocation);
      this.#checkAccess(invocation, actor, route);
      // Before anything is written for the member, their profile included.
      await this.catalog.refuseActor?.(this.deps, actor.id, route.scope);
      // Awaited so shutdown drains it too; a failure here never fails the command.
      await this.deps.profiles.touch(invocation.user).catch((error: unknown) => {
        log.warn({ event: 'profiles.touch_failed', err: error }, 'could not record the member profile');
      });
      await this.deps.serverMembers.seenIn(invocation).catch((error: unknown) => {
        log.warn({ event: 'server_members.failed', err: error }, 'could not record the server member');
      });
      await this.deps.serverLanguage
        .remember(invocation.guildId, invocation.guildLocale)
        .catch((error: unknown) => {
          log.warn({ event: 'server_language.failed', err: error }, 'could not record the server language');
        });

      const ctx = this.#context(invocation, actor, async () => {
        if (responder.state === 'fresh') await responder.defer(route.defer ?? safetyMode);
      });
      const reply = await this.#runWithCooldown(route, ctx, async () => {
        if (route.defer) await responder.defer(route.defer);
      });
      clearTimeout(safety);
      const ran = performance.now();
      const message = await this.#sendLaidOut(responder, reply);
      const sent = performance.now();
      if (message && reply.onSent) await this.#tellSent(invocation, reply.onSent, message);
      this.#recordHandled(invocation, started, ran, sent);
      return { outcome: 'ok' };
    } catch (error) {
      clearTimeout(safety);
      return this.#fail(invocation, responder, error);
    }
  }

  /**
   * Sends a reply as the messages Discord takes (`layOut`): the first is the reply, the rest
   * follow it. Returns the message the reply became.
   */
  async #sendLaidOut(responder: Responder, reply: Reply): Promise<SentMessage | null> {
    if (reply.modal && responder.state !== 'fresh') {
      // Discord takes a form only as the first answer; a slow moment already answered this one.
      throw new AppError('FORM_TOO_LATE', 'the form could not open: the interaction was already answered');
    }
    const [first = reply, ...rest] = layOut(reply);
    const message = await responder.send(first);
    for (const page of rest) await responder.send(page);
    return message;
  }

  #checkAccess(invocation: Invocation, actor: Actor, route: Route): void {
    if (!hasAccess(actor, route.access)) {
      this.deps.log.warn(
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
  }

  async #tellSent(
    invocation: Invocation,
    onSent: NonNullable<Reply['onSent']>,
    message: SentMessage,
  ): Promise<void> {
    await onSent(message).catch((error: unknown) => {
      this.deps.log.warn(
        { event: 'interaction.on_sent_failed', command: describe(invocation), err: error },
        'could not record the message a reply became',
      );
    });
  }

  #recordHandled(invocation: Invocation, started: number, ran: number, sent: number): void {
    metrics.interactions.inc({ command: seriesOf(invocation), outcome: 'ok' });
    metrics.interactionSeconds.observe({ command: seriesOf(invocation) }, (sent - started) / 1000);
    this.deps.log.info(
      {
        event: 'interaction.handled',
        command: describe(invocation),
        userId: invocation.user.id,
        ms: Math.round(sent - started),
        // Where the time went: the command's own work, then sending the reply to Discord.
        runMs: Math.round(ran - started),
        replyMs: Math.round(sent - ran),
      },
      'interaction handled',
    );
  }

  /** The one catch: counts and logs the failure, and replies with its message (or a reference). */
  async #fail(invocation: Invocation, responder: Responder, failure: unknown): Promise<DispatchResult> {
    const { log } = this.deps;
    // The database went away mid-way: the member hears that, not "something went wrong".
    const error = isDatabaseUnavailable(failure) ? databaseUnavailable(true, failure) : failure;
    const ref = this.deps.rng.uuid().slice(0, 8).toUpperCase();
    const presented = presentError(
      error,
      ref,
      this.catalog.errorMessages,
      this.#languages(invocation).member,
    );
    const code = presented.expected ? (error as AppError).code : 'UNEXPECTED';
    metrics.interactions.inc({
      command: seriesOf(invocation),
      outcome: presented.expected ? 'refused' : 'failed',
    });
    metrics.errors.inc({ code });
    if (presented.expected) {
      const code = (error as AppError).code;
      const lost = code === 'DATABASE_UNAVAILABLE';
      log[lost ? 'warn' : 'info'](
        {
          event: 'interaction.refused',
          command: describe(invocation),
          code,
          ...(lost ? { err: (error as AppError).cause } : {}),
        },
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
      log.error({ event: 'interaction.reply_failed', ref, err: sendError }, 'could not send the error reply');
    });
    return presented.expected
      ? { outcome: 'refused', code: (error as AppError).code }
      : { outcome: 'failed', ref };
  }

  #actor(invocation: Invocation): Actor {
    return resolveActor(
      invocation.user,
      invocation.roleIds,
      this.deps.config.authority,
      invocation.manageServer ?? false,
    );
  }

  #context(invocation: Invocation, actor: Actor, defer: () => Promise<void>): CommandContext {
    const { member, server } = this.#languages(invocation);
    return {
      deps: this.deps,
      invocation,
      actor,
      commands: this.commands,
      defer,
      i18n: member,
      serverI18n: server,
    };
  }

  /** The member's language (theirs, else the server's, else English) and the server's. */
  #languages(invocation: Invocation): { member: Translator; server: Translator } {
    const { i18n } = this.deps;
    return {
      member: i18n.for(resolveLocale(invocation.locale, invocation.guildLocale)),
      server: i18n.for(resolveLocale(invocation.guildLocale)),
    };
  }

  /**
   * Claims the cooldown first (atomic, across shards; a refusal is private, so it comes
   * before a public deferral) and gives it back if the handler fails.
   */
  async #runWithCooldown(route: Route, ctx: CommandContext, defer: () => Promise<void>): Promise<Reply> {
    const { cooldown } = route;
    const length = typeof cooldown?.ms === 'function' ? await cooldown.ms(this.deps) : (cooldown?.ms ?? 0);
    if (!cooldown || length <= 0) {
      await defer();
      return route.run(ctx);
    }
    const claim = await this.deps.cooldowns.claim(cooldown.action, ctx.actor.id, length);
    try {
      await defer();
      return await route.run(ctx);
    } catch (error) {
      await claim.release().catch(() => undefined);
      throw error;
    }
  }
}
