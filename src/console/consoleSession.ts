import { createHash } from 'node:crypto';
import type { SteerableClock } from '../clock.js';
import type { Locale } from '../i18n/i18n.js';
import type { InteractionRuntime } from '../interactions/runtime.js';
import {
  BARE_INVOCATION,
  type CommandModule,
  type Invocation,
  type ModalSpec,
} from '../interactions/types.js';
import { advanceRunningTasks, type Scheduler } from '../scheduler/scheduler.js';
import { filledForm, menuEntry } from './consoleForms.js';
import type { ConsoleIdentities } from './consoleIdentities.js';
import { type ConsoleMessage, type ConsoleOutput, ConsoleResponder } from './consoleResponder.js';
import type { ConsoleRoleChange, ConsoleRoles } from './consoleRoles.js';
import { ConsoleLineError, consoleText, nameIn } from './consoleTexts.js';
import {
  convertOptions,
  HOME_GUILD,
  names,
  parseConsoleLine,
  resolveCommandPath,
} from './parseConsoleLine.js';
import type { FormLine } from './parseFormLine.js';
import type { RoleLine } from './parseRoleLine.js';

export const CONSOLE_GUILD_ID = '100000000000000001';

/**
 * The id of the console's server named `name` (`!guild NAME`): the home server keeps its fixed
 * id; any other name gets a snowflake-shaped id derived from it, the same in every run, so a
 * script that comes back to a server on a persistent database finds its members there.
 */
export function consoleGuildId(name: string): string {
  if (name === HOME_GUILD) return CONSOLE_GUILD_ID;
  const digits = BigInt(`0x${createHash('sha256').update(name).digest('hex').slice(0, 15)}`) % 10n ** 16n;
  return `20${digits.toString().padStart(16, '0')}`;
}

export const DEFAULT_MEMBER = 'you';

export type LineResult = 'ok' | 'refused' | 'failed' | 'quit';

/**
 * Drives the same command modules through the same runtime as Discord, from text lines.
 * `refused` lines got an expected error reply (a demo may want that); `failed` lines did
 * not parse or hit an unexpected error.
 */
export class ConsoleSession {
  #lastWithButtons: ConsoleMessage | null = null;
  /** The language members of this console speak (their client `locale`; the server's too). */
  locale: Locale;
  #lastWithSelect: ConsoleMessage | null = null;
  /** The last form shown; its `id` is the message whose button opened it ('' for a command's). */
  #lastForm: (ConsoleMessage & { modal: ModalSpec }) | null = null;
  #interactions = 0;
  /** The server the lines happen in (`!guild NAME`). */
  #guildId = CONSOLE_GUILD_ID;

  constructor(
    private readonly deps: {
      runtime: InteractionRuntime;
      clock: SteerableClock;
      identities: ConsoleIdentities;
      /** The same roles the bot's services give and take (`roles` in its deps). */
      roles: ConsoleRoles;
      output: ConsoleOutput;
      scheduler: Scheduler;
      locale?: Locale;
    },
  ) {
    this.locale = deps.locale ?? 'en';
  }

  /**
   * The session's output calls this for every message. `!click` and `!choose` use the last
   * message that showed such a control, even after an update removed it: that is what a
   * member's second click of a double click does, and the runtime must make it harmless.
   */
  onMessage(message: ConsoleMessage): void {
    if (message.buttons.length > 0) this.#lastWithButtons = message;
    if (message.select) this.#lastWithSelect = message;
    if (message.modal) this.#lastForm = { ...message, modal: message.modal };
  }

  /** Runs one line, then every task that fell due meanwhile (as a live bot's scheduler would). */
  async run(line: string): Promise<LineResult> {
    const result = await this.#line(line);
    await this.deps.scheduler.runDue();
    return result;
  }

  async #line(line: string): Promise<LineResult> {
    const { output } = this.deps;
    try {
      const action = parseConsoleLine(line);
      switch (action.kind) {
        case 'skip':
          return 'ok';
        case 'quit':
          return 'quit';
        case 'locale':
          this.locale = action.locale;
          output.print(this.#text('core:console.languageNow', { locale: action.locale }));
          return 'ok';
        case 'guild':
          this.#guildId = consoleGuildId(action.name);
          output.print(this.#text('core:console.guildNow', { name: action.name, id: this.#guildId }));
          return 'ok';
        case 'wait': {
          const ran = await this.#wait(action.ms);
          const timers = ran === 0 ? '' : this.#text('core:console.timersRan', { count: ran });
          output.print(
            this.#text('core:console.clockNow', { at: this.deps.clock.now().toISOString(), timers }),
          );
          return 'ok';
        }
        case 'role':
          this.#role(action);
          return 'ok';
        case 'click':
          return await this.#click(action.as ?? DEFAULT_MEMBER, action.target);
        case 'choose':
          return await this.#choose(action.as ?? DEFAULT_MEMBER, action.target);
        case 'command':
          return await this.#command(action);
        case 'submit':
          return await this.#submit(action);
        case 'app':
          return await this.#app(action);
      }
    } catch (error) {
      if (!(error instanceof ConsoleLineError)) throw error;
      output.print(this.#text('core:console.error', { message: error.in(this.locale) }));
      return 'failed';
    }
  }

  /** The bot changed a member's role, or Discord refused it: printed as the member would see it happen. */
  onRoleChange(change: ConsoleRoleChange): void {
    const { identities } = this.deps;
    const key = change.refused
      ? 'core:console.botRoleRefused'
      : change.change === 'added'
        ? 'core:console.botRoleAdded'
        : 'core:console.botRoleRemoved';
    this.deps.output.print(
      this.#text(key, {
        member: identities.nameOf(change.userId) ?? change.userId,
        role: identities.roleNameOf(change.roleId) ?? change.roleId,
        reason: change.reason,
        refusal: change.refused,
      }),
    );
  }

  /** `!role`, `!unrole`, `!roles`: what a server's moderators and its settings do to roles, in this server. */
  #role(line: RoleLine): void {
    const { identities, roles, output } = this.deps;
    const guild = this.#guildId;
    if (line.act === 'deny') {
      roles.deny(guild, line.refusal);
      output.print(
        line.refusal === null
          ? this.#text('core:console.rolesAllowed')
          : this.#text('core:console.rolesDenied', { refusal: line.refusal }),
      );
      return;
    }
    if (line.act === 'list') {
      const member = identities.get(line.member ?? DEFAULT_MEMBER);
      const held = roles.of(guild, member.id).map((id) => `@${identities.roleNameOf(id) ?? id}`);
      output.print(
        held.length === 0
          ? this.#text('core:console.rolesNone', { member: member.name })
          : this.#text('core:console.rolesOf', { member: member.name, roles: held.join(', ') }),
      );
      return;
    }
    const member = identities.get(line.member);
    const role = identities.role(line.role);
    const params = { member: member.name, role: role.name };
    if (line.act === 'give')
      output.print(
        roles.give(guild, member.id, role.id)
          ? this.#text('core:console.roleGiven', params)
          : this.#text('core:console.roleHeld', params),
      );
    else
      output.print(
        roles.take(guild, member.id, role.id)
          ? this.#text('core:console.roleTaken', params)
          : this.#text('core:console.roleNotHeld', params),
      );
  }

  /** A console text in the session's language. */
  #text(key: string, params: Record<string, unknown> = {}): string {
    return consoleText(this.locale, key, params);
  }

  /**
   * Moves the simulated clock forward, stopping at each task's due time to run it, so tasks
   * run in order and each sees the time it was planned for.
   */
  async #wait(ms: number): Promise<number> {
    const { clock, scheduler } = this.deps;
    const target = new Date(clock.now().getTime() + ms);
    return (await advanceRunningTasks(scheduler, clock, target)).ran;
  }

  async #command(
    action: Extract<ReturnType<typeof parseConsoleLine>, { kind: 'command' }>,
  ): Promise<LineResult> {
    const module = this.deps.runtime.commands.find((c) => names(c.data, action.commandName));
    if (!module) {
      const known = this.deps.runtime.commands.map((c) => `/${nameIn(c.data, this.locale)}`).join(', ');
      throw new ConsoleLineError('core:console.noCommand', { command: action.commandName, known });
    }
    const path = resolveCommandPath(module, [action.group, action.subcommand], action.loose, this.locale);
    const where = this.#where(module, path);
    const { identities } = this.deps;
    const { options, users, roleNames, attachments } = convertOptions(
      where,
      path.options,
      action.args,
      {
        user: (name) => identities.get(name),
        channel: (name) => identities.channel(name),
        role: (name) => identities.role(name),
        knownRole: (name) => identities.knownRole(name),
      },
      this.locale,
    );
    return this.#dispatch(
      {
        ...this.#base(action.as ?? DEFAULT_MEMBER),
        kind: 'command',
        commandName: module.data.name,
        group: path.group,
        subcommand: path.subcommand,
        options,
        users,
        roleNames,
        ...(Object.keys(attachments).length > 0 ? { attachments } : {}),
        customId: null,
        messageId: null,
        values: [],
      },
      null,
    );
  }

  /** `/kekse schenken`: the command path as a member of the session's language types it. */
  #where(module: CommandModule, path: { group: string | null; subcommand: string | null }): string {
    const words = [nameIn(module.data, this.locale)];
    const top = module.data.options ?? [];
    const group = top.find((o) => o.name === path.group);
    const parent = group && 'options' in group ? (group.options ?? []) : top;
    if (group) words.push(nameIn(group, this.locale));
    const sub = parent.find((o) => o.name === path.subcommand);
    if (sub) words.push(nameIn(sub, this.locale));
    return `/${words.join(' ')}`;
  }

  async #click(as: string, target: string): Promise<LineResult> {
    const message = this.#lastWithButtons;
    const button = message?.buttons.find(
      (b) => b.label.toLowerCase() === target.toLowerCase() || b.customId === target,
    );
    if (!message) throw new ConsoleLineError('core:console.noButtonAtAll', { target });
    if (!button) {
      const offered = message.buttons.map((b) => `[${b.label}]`).join(' ');
      throw new ConsoleLineError('core:console.noButton', { target, offered });
    }
    if (button.disabled) throw new ConsoleLineError('core:console.buttonDisabled', { label: button.label });
    return this.#component(as, 'button', button.customId, message.id, []);
  }

  async #choose(as: string, target: string): Promise<LineResult> {
    const message = this.#lastWithSelect;
    const select = message?.select;
    const option = select?.options.find(
      (o) => o.label.toLowerCase() === target.toLowerCase() || o.value === target,
    );
    if (!message || !select) throw new ConsoleLineError('core:console.noMenuAtAll', { target });
    if (!option) {
      const offered = select.options.map((o) => `[${o.label}]`).join(' ');
      throw new ConsoleLineError('core:console.noMenuOption', { target, offered });
    }
    return this.#component(as, 'select', select.customId, message.id, [option.value]);
  }

  /** `!submit`: the last form, filled in and sent as Discord sends a submitted modal. */
  async #submit(line: Extract<FormLine, { kind: 'submit' }>): Promise<LineResult> {
    const form = this.#lastForm;
    if (!form) throw new ConsoleLineError('core:console.noFormAtAll');
    const fields = filledForm(form.modal, line);
    const fromMessage = form.id === '' ? null : form.id;
    return this.#dispatch(
      {
        ...this.#base(line.as ?? DEFAULT_MEMBER),
        ...BARE_INVOCATION,
        kind: 'modal',
        customId: form.modal.customId,
        messageId: fromMessage,
        fields,
      },
      fromMessage,
    );
  }

  /** `!app`: an entry of a member's context menu, used on that member. */
  async #app(line: Extract<FormLine, { kind: 'app' }>): Promise<LineResult> {
    const entry = menuEntry(this.deps.runtime.commands, line.entry, this.locale);
    const target = this.deps.identities.get(line.member);
    return this.#dispatch(
      {
        ...this.#base(line.as ?? DEFAULT_MEMBER),
        ...BARE_INVOCATION,
        kind: 'context',
        commandName: entry.data.name,
        targetId: target.id,
        users: { [target.id]: target.name },
      },
      null,
    );
  }

  #component(
    as: string,
    kind: 'button' | 'select',
    customId: string,
    messageId: string,
    values: string[],
  ): Promise<LineResult> {
    return this.#dispatch(
      {
        ...this.#base(as),
        kind,
        commandName: '',
        group: null,
        subcommand: null,
        options: {},
        users: {},
        customId,
        messageId,
        values,
      },
      messageId,
    );
  }

  #base(
    as: string,
  ): Pick<
    Invocation,
    'id' | 'user' | 'joinedAt' | 'roleIds' | 'guildId' | 'channelId' | 'locale' | 'guildLocale'
  > {
    this.#interactions += 1;
    const user = this.deps.identities.get(as);
    return {
      // Unique across console runs on a persistent database (operation ids derive from it).
      id: `${Date.now()}${String(this.#interactions).padStart(6, '0')}`,
      user,
      // As Discord sends them: the roles the member holds in this server now.
      roleIds: this.deps.roles.of(this.#guildId, user.id),
      guildId: this.#guildId,
      // The console knows no join times: a member's first line in a server stands for it.
      joinedAt: null,
      // Everything typed at the console happens in one channel, #general.
      channelId: this.deps.identities.channel('general').id,
      locale: this.locale,
      guildLocale: this.locale,
    };
  }

  async #dispatch(invocation: Invocation, buttonMessageId: string | null): Promise<LineResult> {
    const responder = new ConsoleResponder(this.deps.output, buttonMessageId);
    const result = await this.deps.runtime.dispatch(invocation, responder);
    return result.outcome === 'ok' ? 'ok' : result.outcome;
  }
}
