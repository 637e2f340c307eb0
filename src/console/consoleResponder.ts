import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadImage } from 'canvas';
import type { Clock } from '../clock.js';
import type {
  ButtonSpec,
  DeferMode,
  EmbedSpec,
  Reply,
  Responder,
  SelectSpec,
} from '../interactions/types.js';

export interface ConsoleMessage {
  id: string;
  buttons: ButtonSpec[];
  select: SelectSpec | null;
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

  async send(reply: Reply): Promise<void> {
    const update = reply.update === true && this.buttonMessageId !== null;
    this.state = 'replied';
    const lines: string[] = [];
    const tags = [reply.ephemeral ? '[ephemeral]' : null, update ? '[updated message]' : null].filter(
      Boolean,
    );
    if (reply.content)
      lines.push(`${tags.join(' ')}${tags.length ? ' ' : ''}${this.out.plain(reply.content)}`);
    else if (tags.length) lines.push(tags.join(' '));
    for (const embed of reply.embeds ?? []) lines.push(...this.#embed(embed));
    for (const file of reply.files ?? []) {
      const path = this.out.saveFile(file.name, file.data);
      const size = file.name.endsWith('.png') ? await pngSize(file.data) : `${file.data.length} bytes`;
      lines.push(`attachment: ${path} (${size})`);
    }
    const buttons = reply.buttons ?? [];
    if (buttons.length > 0) {
      lines.push(
        `buttons: ${buttons.map((b) => `[${b.label}] (${b.customId})${b.disabled ? ' disabled' : ''}`).join('  ')}`,
      );
    }
    if (reply.select) {
      const options = reply.select.options.map(
        (o) => `[${o.label}${o.label === o.value ? '' : `=${o.value}`}]`,
      );
      lines.push(`menu: ${reply.select.placeholder} (${reply.select.customId}): ${options.join(' ')}`);
    }
    this.out.print(lines.join('\n'));
    const id = update ? (this.buttonMessageId as string) : this.out.nextMessageId();
    this.out.onMessage({ id, buttons, select: reply.select ?? null }, update);
  }

  #embed(embed: EmbedSpec): string[] {
    const body: string[] = [];
    if (embed.description) body.push(...this.out.plain(embed.description).split('\n'));
    for (const field of embed.fields ?? []) {
      const [first, ...rest] = this.out.plain(field.value).split('\n');
      body.push(`${field.name}: ${first ?? ''}`, ...rest.map((l) => `  ${l}`));
    }
    if (embed.imageFile) body.push(`(image: ${embed.imageFile})`);
    return [
      `┌ ${embed.title ?? ''}`.trimEnd(),
      ...body.map((l) => `│ ${l}`),
      `└${embed.footer ? ` ${embed.footer}` : ''}`,
    ];
  }
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
  onMessage: ConsoleOutput['onMessage'];
}): ConsoleOutput {
  let files = 0;
  return {
    print: (text) => options.write(`${text}\n`),
    plain: (text) =>
      text
        .replace(/<@!?(\d+)>/g, (_, id: string) => `@${options.nameOf(id) ?? id}`)
        .replace(/<t:(\d+):R>/g, (_, s: string) => relative(Number(s) * 1000 - options.clock.now().getTime()))
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

function relative(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 45_000) return 'just now';
  const [value, unit] =
    abs < 90_000
      ? [Math.round(abs / 1000), 'second']
      : abs < 5_400_000
        ? [Math.round(abs / 60_000), 'minute']
        : abs < 129_600_000
          ? [Math.round(abs / 3_600_000), 'hour']
          : [Math.round(abs / 86_400_000), 'day'];
  const text = `${value} ${unit}${value === 1 ? '' : 's'}`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}
