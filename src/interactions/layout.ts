import type { EmbedSpec, Reply } from './reply.js';

/**
 * Discord's limits for one message (its docs: Message, Embed limits, Components). The console
 * has none, but every reply and post is laid out within them, so what the console shows is
 * what Discord accepts.
 */
export const MESSAGE_LIMITS = {
  content: 2_000,
  embedsPerMessage: 10,
  /** Title, description, field names and values, footer and author of all embeds of a message. */
  embedTotal: 6_000,
  title: 256,
  description: 4_096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1_024,
  footer: 2_048,
  filesPerMessage: 10,
  actionRows: 5,
  buttonsPerRow: 5,
  buttonLabel: 80,
  customId: 100,
  selectOptions: 25,
  selectOptionText: 100,
  selectPlaceholder: 150,
  modalTitle: 45,
  modalInputs: 5,
  inputLabel: 45,
  inputPlaceholder: 100,
  inputValue: 4_000,
} as const;

/** The name of a field that carries on the one above it: Discord shows it as one block of text. */
export const CONTINUED_FIELD = '\u200b';

type Field = NonNullable<EmbedSpec['fields']>[number];

/**
 * Pieces of at most `max` characters (UTF-16 units, as Discord and the spec count), cut between
 * lines, else between words, so no number or word is ever cut in two; only a single word longer
 * than `max` is cut, never inside a character.
 */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const head = rest.slice(0, max + 1);
    let cut = head.lastIndexOf('\n');
    if (cut <= 0) cut = head.lastIndexOf(' ');
    if (cut <= 0) cut = isLowSurrogate(rest.charCodeAt(max)) ? max - 1 : max;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^[\n ]/, '');
  }
  if (rest.length > 0 || pieces.length === 0) pieces.push(rest);
  return pieces;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** `text` cut to `max` characters between words, with an ellipsis when anything was cut. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const [head = ''] = splitText(text, max - 1);
  return `${head}…`;
}

function embedSize(embed: EmbedSpec): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.length ?? 0) +
    (embed.fields ?? []).reduce((sum, f) => sum + f.name.length + f.value.length, 0)
  );
}

/** A field within Discord's limits: a long value goes on in fields without a heading. */
function fitField(field: Field): Field[] {
  const name = shorten(field.name.length > 0 ? field.name : CONTINUED_FIELD, MESSAGE_LIMITS.fieldName);
  return splitText(field.value.length > 0 ? field.value : CONTINUED_FIELD, MESSAGE_LIMITS.fieldValue).map(
    (value, i) => ({
      name: i === 0 ? name : CONTINUED_FIELD,
      value,
      ...(field.inline !== undefined && i === 0 ? { inline: field.inline } : {}),
    }),
  );
}

/**
 * One embed as embeds within the limits of each: a long description goes on in embeds of its
 * own, fields past 25 (or past what fits the message's total) in embeds without a title.
 */
function fitEmbed(embed: EmbedSpec): EmbedSpec[] {
  const carry = (part: EmbedSpec): EmbedSpec => ({
    ...(embed.color !== undefined ? { color: embed.color } : {}),
    ...part,
  });
  const out: EmbedSpec[] = [];
  const descriptions = embed.description ? splitText(embed.description, MESSAGE_LIMITS.description) : [];
  const title = embed.title ? shorten(embed.title, MESSAGE_LIMITS.title) : undefined;
  const footer = embed.footer ? shorten(embed.footer, MESSAGE_LIMITS.footer) : undefined;
  let current: EmbedSpec = carry({
    ...(title ? { title } : {}),
    ...(descriptions[0] !== undefined ? { description: descriptions[0] } : {}),
    ...(embed.imageFile ? { imageFile: embed.imageFile } : {}),
  });
  for (const description of descriptions.slice(1)) {
    out.push(current);
    current = carry({ description });
  }
  // The footer closes the last embed; room is kept for it.
  const room = MESSAGE_LIMITS.embedTotal - (footer?.length ?? 0);
  for (const field of (embed.fields ?? []).flatMap(fitField)) {
    const fields = current.fields ?? [];
    const full =
      fields.length >= MESSAGE_LIMITS.fields ||
      embedSize(current) + field.name.length + field.value.length > room;
    if (full) {
      out.push(current);
      current = carry({ fields: [field] });
    } else {
      current = { ...current, fields: [...fields, field] };
    }
  }
  out.push(footer ? { ...current, footer } : current);
  return out;
}

/**
 * A reply as the messages Discord takes: the first carries the content's start, the buttons,
 * the menu and the files; embeds that do not fit it (past 10, or past 6,000 characters in all)
 * and the rest of a long content follow in more messages of the same visibility. Every reply
 * and post goes through here, so a text that grows (a new subcommand in /help, a setting
 * changed) adds a message instead of being refused.
 */
export function layOut(reply: Reply): Reply[] {
  if (reply.modal) return [{ modal: fitModal(reply.modal) }];
  const contents = reply.content ? splitText(reply.content, MESSAGE_LIMITS.content) : [];
  const embeds = (reply.embeds ?? []).flatMap(fitEmbed);
  const groups: EmbedSpec[][] = [];
  let group: EmbedSpec[] = [];
  let size = 0;
  for (const embed of embeds) {
    const grows = embedSize(embed);
    if (
      group.length >= MESSAGE_LIMITS.embedsPerMessage ||
      (group.length > 0 && size + grows > MESSAGE_LIMITS.embedTotal)
    ) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(embed);
    size += grows;
  }
  if (group.length > 0) groups.push(group);

  const files = reply.files ?? [];
  const first: Reply = {
    ...reply,
    ...(reply.content !== undefined ? { content: contents[0] ?? '' } : {}),
    ...(reply.embeds !== undefined ? { embeds: groups[0] ?? [] } : {}),
    ...(reply.files !== undefined ? { files: files.slice(0, MESSAGE_LIMITS.filesPerMessage) } : {}),
    ...(reply.buttons ? { buttons: reply.buttons.map(fitButton) } : {}),
    ...(reply.select ? { select: fitSelect(reply.select) } : {}),
    ...(reply.links ? { links: reply.links.map(fitButton) } : {}),
  };
  const more: Reply = {
    ...(reply.ephemeral ? { ephemeral: true } : {}),
    ...(reply.notify ? { notify: reply.notify } : {}),
  };
  const rest: Reply[] = [
    ...contents.slice(1).map((content) => ({ ...more, content })),
    ...groups.slice(1).map((embedGroup) => ({ ...more, embeds: embedGroup })),
  ];
  for (let i = MESSAGE_LIMITS.filesPerMessage; i < files.length; i += MESSAGE_LIMITS.filesPerMessage)
    rest.push({ ...more, files: files.slice(i, i + MESSAGE_LIMITS.filesPerMessage) });
  return [first, ...rest];
}

/**
 * A message that must stay one message (an edit of a board or a post): laid out as above, and
 * what does not fit the first message is left out, said by an ellipsis at its end.
 */
export function layOutOne(reply: Reply): Reply {
  const [first = reply, ...rest] = layOut(reply);
  if (rest.length === 0) return first;
  const embeds = first.embeds ?? [];
  const last = embeds[embeds.length - 1];
  const total = embeds.reduce((sum, e) => sum + embedSize(e), 0);
  if (
    last &&
    total + 2 <= MESSAGE_LIMITS.embedTotal &&
    (last.footer?.length ?? 0) + 2 <= MESSAGE_LIMITS.footer
  ) {
    return {
      ...first,
      embeds: [...embeds.slice(0, -1), { ...last, footer: `${last.footer ?? ''} …`.trimStart() }],
    };
  }
  return { ...first, content: shorten(`${first.content ?? ''} …`.trimStart(), MESSAGE_LIMITS.content) };
}

function fitButton<T extends { label: string }>(button: T): T {
  return { ...button, label: shorten(button.label, MESSAGE_LIMITS.buttonLabel) };
}

function fitModal(modal: NonNullable<Reply['modal']>): NonNullable<Reply['modal']> {
  return {
    ...modal,
    title: shorten(modal.title, MESSAGE_LIMITS.modalTitle),
    inputs: modal.inputs.slice(0, MESSAGE_LIMITS.modalInputs).map((input) => ({
      ...input,
      label: shorten(input.label, MESSAGE_LIMITS.inputLabel),
      ...(input.placeholder !== undefined
        ? { placeholder: shorten(input.placeholder, MESSAGE_LIMITS.inputPlaceholder) }
        : {}),
      ...(input.value !== undefined ? { value: input.value.slice(0, MESSAGE_LIMITS.inputValue) } : {}),
    })),
  };
}

function fitSelect(select: NonNullable<Reply['select']>): NonNullable<Reply['select']> {
  const text = (value: string) => shorten(value, MESSAGE_LIMITS.selectOptionText);
  return {
    ...select,
    placeholder: shorten(select.placeholder, MESSAGE_LIMITS.selectPlaceholder),
    options: select.options.map((o) => ({
      ...o,
      label: text(o.label),
      ...(o.description !== undefined ? { description: text(o.description) } : {}),
    })),
  };
}
