import { createCanvas } from 'canvas';
import { type APIApplicationCommandOption, ApplicationCommandOptionType as Option } from 'discord.js';
import type { CommandModule } from '../../src/interactions/types.js';
import type { FakeAttachment, FakeDiscord, FakeUser, VisibleMessage } from './fakeDiscord.js';

/**
 * One slash command as a member types it: its path and the value of every option it has, and
 * the file of every attachment option (`fake.command`'s `files`).
 */
export interface Invocation {
  name: string;
  path: string[];
  options: Record<string, string | number | boolean>;
  users: FakeUser[];
  files: Record<string, FakeAttachment>;
}

/** How the crawl fills options: samples by option name, and the member a user option names. */
export interface OptionSource {
  samples: Readonly<Record<string, string | number>>;
  /** Files for attachment options by option name; without one, a small PNG. */
  files?: Readonly<Record<string, FakeAttachment>>;
  /** The member named by user options (by option name and command path, for the few that differ). */
  userFor(option: string, path: string): FakeUser;
}

/** What a member attaches to an attachment option the crawl has no file for: an 8 × 8 PNG. */
function samplePng(): FakeAttachment {
  const canvas = createCanvas(8, 8);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, 8, 8);
  g.fillStyle = '#000000';
  g.fillRect(2, 2, 4, 4);
  return {
    filename: 'sample.png',
    data: canvas.toBuffer('image/png'),
    contentType: 'image/png',
    width: 8,
    height: 8,
  };
}

type Leaf = Exclude<APIApplicationCommandOption, { type: Option.Subcommand | Option.SubcommandGroup }>;

/** Every subcommand of a command with its options: ['cookies', 'give'] with user and amount. */
function leaves(module: CommandModule): { path: string[]; options: Leaf[] }[] {
  const walk = (
    path: string[],
    options: readonly APIApplicationCommandOption[],
  ): { path: string[]; options: Leaf[] }[] => {
    const nested = options.filter((o) => o.type === Option.Subcommand || o.type === Option.SubcommandGroup);
    if (nested.length === 0) return [{ path, options: options as Leaf[] }];
    return nested.flatMap((o) =>
      walk([...path, o.name], 'options' in o ? ((o.options ?? []) as APIApplicationCommandOption[]) : []),
    );
  };
  return walk([], module.data.options ?? []);
}

/**
 * Every subcommand with every option given, and again with only its required ones (the worst
 * case shows the most): a sample named for the option, else the first choice, else the first
 * suggestion Discord's autocomplete offered, else the smallest value the option takes.
 */
export async function invocations(
  fake: FakeDiscord,
  who: FakeUser,
  module: CommandModule,
  source: OptionSource,
): Promise<Invocation[]> {
  const name = module.data.name;
  const out: Invocation[] = [];
  for (const { path, options } of leaves(module)) {
    const values: Record<string, string | number | boolean> = {};
    const users: FakeUser[] = [];
    const files: Record<string, FakeAttachment> = {};
    for (const option of options) {
      const key = `${[name, ...path].join(' ')} ${option.name}`;
      const sample = source.samples[key] ?? source.samples[option.name];
      if (option.type === Option.Attachment) {
        // Discord sends an attachment option only with the file the member uploaded.
        files[option.name] = source.files?.[key] ?? source.files?.[option.name] ?? samplePng();
      } else if (option.type === Option.User) {
        const user = source.userFor(option.name, [name, ...path].join(' '));
        values[option.name] = user.id;
        users.push(user);
      } else if (option.type === Option.Boolean) {
        values[option.name] = true;
      } else if (sample !== undefined) {
        values[option.name] = sample;
      } else if ('choices' in option && option.choices?.[0]) {
        values[option.name] = option.choices[0].value;
      } else if ('autocomplete' in option && option.autocomplete) {
        const typed = { ...stringsOf(values), [option.name]: '' };
        const token = fake.autocomplete(who, name, path, typed, option.name);
        const [first] = await fake.suggestions(token);
        values[option.name] = first?.value ?? 'x';
      } else if (option.type === Option.Integer || option.type === Option.Number) {
        values[option.name] = 'min_value' in option && option.min_value !== undefined ? option.min_value : 1;
      } else {
        values[option.name] = 'x';
      }
    }
    out.push({ name, path, options: values, users, files });
    // And with only what it requires: some show the most without a filter (`/settings show`).
    const required = options.filter((o) => 'required' in o && o.required).map((o) => o.name);
    if (required.length < options.length) {
      const only = Object.fromEntries(Object.entries(values).filter(([key]) => required.includes(key)));
      out.push({
        name,
        path,
        options: only,
        users: users.filter((u) => Object.values(only).includes(u.id)),
        files: Object.fromEntries(Object.entries(files).filter(([key]) => required.includes(key))),
      });
    }
  }
  return out;
}

function stringsOf(values: Record<string, string | number | boolean>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
}

/** The last message an interaction left: what a member then presses on. */
export function finalMessage(messages: VisibleMessage[]): VisibleMessage | undefined {
  return [...messages].reverse().find((m) => m.via !== 'deferred' && m.via !== 'suggestions');
}

/** A control on a message, as a member can press or pick it. */
export interface Control {
  message: VisibleMessage;
  customId: string;
  label: string;
  /** For a menu: its first option's value. */
  value?: string;
}

/** The buttons (not links) and menus of a message. */
export function controls(message: VisibleMessage | undefined): Control[] {
  if (!message) return [];
  return message.components.flatMap((row) =>
    row.components.flatMap((c) => {
      if (!c.custom_id) return [];
      const value = c.options?.[0]?.value;
      return [{ message, customId: c.custom_id, label: c.label ?? c.custom_id, ...(value ? { value } : {}) }];
    }),
  );
}

/**
 * What a member types into a form Discord showed (via 'modal'): each box's own value where the
 * form filled one in, else `typed`.
 */
export function formFields(form: VisibleMessage, typed: string): Record<string, string> {
  const rows = (form.modal?.components ?? []) as { components: { custom_id: string; value?: string }[] }[];
  return Object.fromEntries(
    rows.flatMap((row) => row.components.map((box) => [box.custom_id, box.value ?? typed] as const)),
  );
}

/** The family of a custom id: what the runtime routes by, and what a crawl presses once each. */
export function familyOf(customId: string): string {
  return customId.split(':')[0] ?? customId;
}
