import type { ServerResponse } from 'node:http';
import { type APIApplicationCommandOption, ApplicationCommandOptionType as Option } from 'discord.js';
import { AttachmentResponseSchema } from 'discord-api-spec/zod';
import { specFieldErrors } from './specErrors.js';

/**
 * Files members attach to a slash command's attachment options, as Discord handles them: the
 * client uploads each file before it sends the command, Discord puts it into the interaction's
 * `resolved.attachments` (an ephemeral attachment: Discord's docs, Interactions › Resolved Data
 * Structure; the published spec's ResolvedObjectsResponse lacks the field, its AttachmentResponse
 * gives the object's shape) and serves its bytes from its CDN at the attachment's `url`.
 */

/** A file a member attaches: its name and bytes, its type, and for an image its size in pixels. */
export interface FakeAttachment {
  filename: string;
  data: Buffer;
  contentType?: string;
  width?: number;
  height?: number;
}

/** An attachment object as the interaction carries it. */
export type ApiAttachment = ReturnType<typeof apiAttachment>;

/** The attachment object of `file`, uploaded as `id`, served from `cdn` (the fake's own HTTP server). */
export function apiAttachment(id: string, file: FakeAttachment, cdn: string) {
  const url = `${cdn}/attachments/${id}/${encodeURIComponent(file.filename)}`;
  const api = {
    id,
    filename: file.filename,
    size: file.data.length,
    url,
    proxy_url: url,
    ...(file.contentType ? { content_type: file.contentType } : {}),
    ...(file.width !== undefined ? { width: file.width } : {}),
    ...(file.height !== undefined ? { height: file.height } : {}),
    // Files attached to a slash command are ephemeral: Discord deletes them after a while.
    ephemeral: true,
  };
  const problems = specFieldErrors(AttachmentResponseSchema, api);
  if (problems.length > 0)
    throw new Error(`the fake built an attachment off Discord's spec: ${JSON.stringify(problems)}`);
  return api;
}

type Leaf = Exclude<APIApplicationCommandOption, { type: Option.Subcommand | Option.SubcommandGroup }>;

/** The options of the subcommand `path` names in a command's definition; null when there is none. */
function leafOptions(options: readonly APIApplicationCommandOption[], path: string[]): Leaf[] | null {
  const [first, ...rest] = path;
  if (first === undefined)
    return options.some((o) => o.type === Option.Subcommand || o.type === Option.SubcommandGroup)
      ? null
      : (options as Leaf[]);
  const nested = options.find(
    (o) => o.name === first && (o.type === Option.Subcommand || o.type === Option.SubcommandGroup),
  );
  return nested && 'options' in nested ? leafOptions(nested.options ?? [], rest) : null;
}

/** A registered command as the fake keeps it: its name and options (what a deploy sent). */
export interface RegisteredCommand {
  name: string;
  options?: readonly APIApplicationCommandOption[];
}

/**
 * Why Discord's client could not send this command with these files: a file for an option the
 * registered definition does not type as an attachment (or lacks), an attachment option given as
 * a bare value (Discord sends one only with the file it resolved), a required file missing, a file
 * over the upload limit; null when it could. A command the fake knows no definition of may carry
 * no file: the client offers a file picker only for an attachment option it was told of.
 */
export function attachmentRefusal(
  registered: RegisteredCommand | undefined,
  path: string[],
  options: Readonly<Record<string, unknown>>,
  files: Readonly<Record<string, FakeAttachment>>,
  uploadLimitBytes: number,
): string | null {
  const label = `/${[registered?.name ?? '?', ...path].join(' ')}`;
  const named = Object.keys(files);
  if (!registered)
    return named.length > 0
      ? `${label}: no definition of it is registered, so no attachment option either (register the command first)`
      : null;
  const leaves = leafOptions(registered.options ?? [], path);
  if (!leaves) return named.length > 0 ? `${label}: the registered definition has no such subcommand` : null;
  for (const name of named) {
    const definition = leaves.find((o) => o.name === name);
    if (!definition) return `${label}: the registered definition has no option "${name}"`;
    if (definition.type !== Option.Attachment)
      return `${label}: option "${name}" is a ${Option[definition.type]} option, not an attachment`;
    if (name in options) return `${label}: option "${name}" given both as a value and as a file`;
    const size = files[name]?.data.length ?? 0;
    if (size > uploadLimitBytes)
      return `${label}: the file of "${name}" has ${size} bytes, over the upload limit of ${uploadLimitBytes}`;
  }
  for (const definition of leaves.filter((o) => o.type === Option.Attachment)) {
    if (definition.name in options)
      return `${label}: attachment option "${definition.name}" given as a bare value; Discord sends a file it resolved (give it as a file)`;
    if (definition.required && !named.includes(definition.name))
      return `${label}: the required attachment option "${definition.name}" has no file`;
  }
  return null;
}

/**
 * What Discord's client refuses to send of typed values: a number under the option's
 * `min_value` or over its `max_value`, a text shorter than `min_length` or longer than
 * `max_length` (the member sees the limit and cannot press Enter).
 */
export function boundsRefusal(
  registered: RegisteredCommand | undefined,
  path: string[],
  options: Readonly<Record<string, unknown>>,
): string | null {
  const leaves = registered ? leafOptions(registered.options ?? [], path) : null;
  if (!registered || !leaves) return null;
  const label = `/${[registered.name, ...path].join(' ')}`;
  for (const definition of leaves) {
    const value = options[definition.name];
    if (
      typeof value === 'number' &&
      (definition.type === Option.Integer || definition.type === Option.Number)
    ) {
      if (definition.min_value !== undefined && value < definition.min_value)
        return `${label}: option "${definition.name}" is ${value}, under its min_value ${definition.min_value}`;
      if (definition.max_value !== undefined && value > definition.max_value)
        return `${label}: option "${definition.name}" is ${value}, over its max_value ${definition.max_value}`;
    }
    if (typeof value === 'string' && definition.type === Option.String) {
      const length = [...value].length;
      if (definition.min_length !== undefined && length < definition.min_length)
        return `${label}: option "${definition.name}" has ${length} characters, under its min_length ${definition.min_length}`;
      if (definition.max_length !== undefined && length > definition.max_length)
        return `${label}: option "${definition.name}" has ${length} characters, over its max_length ${definition.max_length}`;
    }
  }
  return null;
}

/** One download of an attachment from the fake's CDN: how far it got. */
export interface AttachmentDownload {
  id: string;
  size: number;
  /** Bytes handed to the connection so far. */
  sent: number;
  /** `cut off`: the reader closed the connection before the last byte. */
  state: 'sending' | 'complete' | 'cut off';
}

/**
 * Serves a file's bytes as a CDN does (its type and length first), in chunks and only as fast as
 * the reader takes them, so a reader that stops early leaves the rest unsent.
 */
export function serveAttachment(
  res: ServerResponse,
  file: FakeAttachment,
  download: AttachmentDownload,
  changed: () => void,
): void {
  const { data } = file;
  res.writeHead(200, {
    'content-type': file.contentType ?? 'application/octet-stream',
    'content-length': String(data.length),
  });
  res.on('close', () => {
    download.state = res.writableFinished ? 'complete' : 'cut off';
    changed();
  });
  const pump = () => {
    while (download.sent < data.length) {
      const chunk = data.subarray(download.sent, download.sent + 64 * 1024);
      download.sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  pump();
}
