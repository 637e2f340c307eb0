import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadImage } from 'canvas';
import type { Clock } from '../clock.js';
import type { Locale } from '../i18n/i18n.js';
import { CONTINUED_FIELD } from '../interactions/layout.js';
import type {
  ButtonSpec,
  DeferMode,
  EmbedSpec,
  ModalSpec,
  Reply,
  Responder,
  SelectSpec,
  SentMessage,
} from '../interactions/types.js';
import type { ChannelPost, PostTransport } from '../posting/channelPoster.js';

export interface ConsoleMessage {
  id: string;
  buttons: ButtonSpec[];
  select: SelectSpec | null;
  /** A form the member was shown (`!submit` fills it in). */
  modal?: ModalSpec;
}

export interface ConsoleOutput {
  print(text: string): void;
  /** Turns Discord markup (mentions, timestamps, bold) into plain text. */
  plain(text: string): string;
  saveFile(name: string, data: Buffer): string;
  nextMessageId(): string;
  onMessage(message: ConsoleMessage, update: boolean): void;
}

/** Prints replies as readable text; images are saved under out/ and listed with their size. */
export class ConsoleResponder implements Responder {
  state: Responder['state'] = 'fresh';

  constructor(
    private readonly out: ConsoleOutput,
    private readonly buttonMessageId: string | null,
  ) {}

  async defer(mode: DeferMode): Promise<void> {
    if (this.state !== 'fresh') return;
    this.state = 'deferred';
    this.out.print(
      mode.update
        ? '… working (acknowledged)'
        : `${mode.ephemeral ? '[ephemeral] ' : ''}… thinking (deferred)`,
    );
  }

  async send(reply: Reply): Promise<SentMessage | null> {
    if (reply.modal) return this.#form(reply.modal);
    const update = reply.update === true && this.buttonMessageId !== null;
    this.state = 'replied';
    const tags = [reply.ephemeral ? '[ephemeral]' : null, update ? '[updated message]' : null].filter(
      (tag): tag is string => tag !== null,
    );
    const lines = await messageLines(this.out, tags.join(' '), reply);
    const buttons = reply.buttons ?? [];
    if (buttons.length > 0) lines.push(buttonLine(buttons));
    if (reply.select) {
      const options = reply.select.options.map(
        (o) => `[${o.label}${o.label === o.value ? '' : `=${o.value}`}]`,
      );
      lines.push(`menu: ${reply.select.placeholder} (${reply.select.customId}): ${options.join(' ')}`);
    }
    if (reply.links?.length)
      lines.push(`links: ${reply.links.map((l) => `[${l.label}](${l.url})`).join('  ')}`);
    this.out.print(lines.join('\n'));
    const id = update ? (this.buttonMessageId as string) : this.out.nextMessageId();
    this.out.onMessage({ id, buttons, select: reply.select ?? null }, update);
    return reply.ephemeral ? null : { messageId: id };
  }

  /** A form, as the member sees it: its title and each box with its hint; `!submit` answers it. */
  #form(modal: ModalSpec): null {
    this.state = 'replied';
    const boxes = modal.inputs.map(
      (input) =>
        `  ${input.customId}: ${input.label}${input.placeholder ? ` (${input.placeholder})` : ''}${input.value ? ` = ${input.value}` : ''}`,
    );
    this.out.print([`[form] ${modal.title} (${modal.customId})`, ...boxes].join('\n'));
    this.out.onMessage(
      // The message whose button opened the form; '' when a command or a menu entry did.
      { id: this.buttonMessageId ?? '', buttons: [], select: null, modal },
      false,
    );
    return null;
  }
}

/** A message's buttons as one console line: `!click LABEL` presses one. */
function buttonLine(buttons: ButtonSpec[]): string {
  const each = buttons.map(
    (b) => `${b.emoji ? `${b.emoji} ` : ''}[${b.label}] (${b.customId})${b.disabled ? ' disabled' : ''}`,
  );
  return `buttons: ${each.join('  ')}`;
}

/** A message as console lines: `tag content`, flattened embeds, saved attachments with their size. */
async function messageLines(out: ConsoleOutput, tag: string, message: ChannelPost): Promise<string[]> {
  const lines: string[] = [];
  if (message.content) lines.push(`${tag}${tag ? ' ' : ''}${out.plain(message.content)}`);
  else if (tag) lines.push(tag);
  for (const embed of message.embeds ?? []) lines.push(...embedLines(out, embed));
  for (const file of message.files ?? []) {
    const path = out.saveFile(file.name, file.data);
    const size = file.name.endsWith('.png') ? await pngSize(file.data) : `${file.data.length} bytes`;
    lines.push(`attachment: ${path} (${size})`);
  }
  return lines;
}

function embedLines(out: ConsoleOutput, embed: EmbedSpec): string[] {
  const body: string[] = [];
  if (embed.description) body.push(...out.plain(embed.description).split('\n'));
  for (const field of embed.fields ?? []) {
    const [first, ...rest] = out.plain(field.value).split('\n');
    // A field without a heading goes on with the one above it, as Discord shows it.
    const head = field.name === CONTINUED_FIELD ? `  ${first ?? ''}` : `${field.name}: ${first ?? ''}`;
    body.push(head, ...rest.map((l) => `  ${l}`));
  }
  if (embed.imageFile) body.push(`(image: ${embed.imageFile})`);
  return [
    `┌ ${embed.title ?? ''}`.trimEnd(),
    ...body.map((l) => `│ ${l}`),
    `└${embed.footer ? ` ${embed.footer}` : ''}`,
  ];
}

/**
 * Channel posts in the console: `[post #channel] …`, direct messages `[dm @member] …`,
 * attachments saved to out/ like replies.
 */
export function consolePostTransport(out: ConsoleOutput): PostTransport {
  return {
    async send(channelId, post) {
      out.print((await messageLines(out, `[post ${out.plain(`<#${channelId}>`)}]`, post)).join('\n'));
    },
    async sendDm(userId, post) {
      out.print((await messageLines(out, `[dm ${out.plain(`<@${userId}>`)}]`, post)).join('\n'));
    },
    // A message the bot edits by itself (a poker board a timer moved on) keeps its buttons:
    // `!click` presses them, as a member would on the edited message.
    async edit(channelId, messageId, post) {
      const lines = await messageLines(out, `[edit ${out.plain(`<#${channelId}>`)}]`, post);
      const buttons = post.buttons ?? [];
      if (buttons.length > 0) lines.push(buttonLine(buttons));
      out.print(lines.join('\n'));
      if (buttons.length > 0) out.onMessage({ id: messageId, buttons, select: null }, true);
    },
  };
}

async function pngSize(data: Buffer): Promise<string> {
  const image = await loadImage(data);
  return `${image.width}x${image.height}`;
}

/** Text output for a console run: stdout by default, files under `outDir`. */
export function createConsoleOutput(options: {
  outDir: string;
  clock: Clock;
  write: (text: string) => void;
  nameOf: (id: string) => string | undefined;
  channelNameOf: (id: string) => string | undefined;
  roleNameOf: (id: string) => string | undefined;
  /** The console's current language (`!locale`), for relative times. */
  locale: () => Locale;
  onMessage: ConsoleOutput['onMessage'];
}): ConsoleOutput {
  let files = 0;
  return {
    print: (text) => options.write(`${text}\n`),
    plain: (text) =>
      text
        .replace(/<@!?(\d+)>/g, (_, id: string) => `@${options.nameOf(id) ?? id}`)
        .replace(/<@&(\d+)>/g, (_, id: string) => `@${options.roleNameOf(id) ?? id}`)
        .replace(/<#(\d+)>/g, (_, id: string) => `#${options.channelNameOf(id) ?? id}`)
        .replace(/<t:(\d+):R>/g, (_, s: string) =>
          relative(Number(s) * 1000 - options.clock.now().getTime(), options.locale()),
        )
        // Discord shows a full date and time in the reader's zone; the console, in UTC.
        .replace(/<t:(\d+):[fF]>/g, (_, s: string) =>
          new Date(Number(s) * 1000).toLocaleString(options.locale(), {
            year: 'numeric',
            month: 'short',
            day: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            timeZone: 'UTC',
            timeZoneName: 'short',
          }),
        )
        // A time of day (`t`, `T`): in UTC too.
        .replace(/<t:(\d+):[tT]>/g, (_, s: string) =>
          new Date(Number(s) * 1000).toLocaleTimeString(options.locale(), {
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
            timeZone: 'UTC',
            timeZoneName: 'short',
          }),
        )
        .replace(/\*\*(.+?)\*\*/g, '$1')
        .replace(/`([^`]+)`/g, '$1'),
    saveFile(name, data) {
      mkdirSync(options.outDir, { recursive: true });
      files += 1;
      const path = `${options.outDir.replace(/\/$/, '')}/${String(files).padStart(3, '0')}-${name}`;
      writeFileSync(path, data);
      return path;
    },
    // Unique across runs too: value-moving buttons derive their operation id from it.
    nextMessageId: () => `console-${randomUUID()}`,
    onMessage: options.onMessage,
  };
}

/** What Discord's client shows for a moment a few seconds ago ("painted just now by @alice"). */
const JUST_NOW: Record<Locale, string> = { en: 'just now', de: 'gerade eben' };

/** A Discord relative timestamp as the member's client would show it, in their language. */
function relative(ms: number, locale: Locale): string {
  const abs = Math.abs(ms);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (ms <= 0 && abs < 45_000) return JUST_NOW[locale];
  if (abs < 1_000) return format.format(0, 'second');
  const sign = ms >= 0 ? 1 : -1;
  if (abs < 90_000) return format.format(sign * Math.round(abs / 1000), 'second');
  if (abs < 5_400_000) return format.format(sign * Math.round(abs / 60_000), 'minute');
  if (abs < 129_600_000) return format.format(sign * Math.round(abs / 3_600_000), 'hour');
  return format.format(sign * Math.round(abs / 86_400_000), 'day');
}
