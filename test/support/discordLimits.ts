import { type FieldError, fieldError } from './discordErrors.js';

/**
 * Discord's documented limits that its published schema does not carry (Message, Embed
 * limits, Components, Interactions and Uploads pages), as the field errors Discord answers.
 * The body may be anything: these checks read it defensively, the schema reports its shape.
 */

type Path = FieldError['path'];
type Json = Record<string, unknown>;

/** Bots get 2,000 characters of content (the spec's 4,000 is for members with Nitro). */
export const MAX_CONTENT = 2_000;
export const MAX_EMBEDS_TOTAL = 6_000;
export const MAX_ACTION_ROWS = 5;
export const MAX_ROW_WIDTH = 5;
export const MAX_FILES = 10;
export const MAX_CHOICE_VALUE = 100;
export const MAX_MODAL_COMPONENTS = 5;
const IS_COMPONENTS_V2 = 1 << 15;
const LINK_BUTTON = 5;
const PREMIUM_BUTTON = 6;
const BUTTON = 2;
const TEXT_INPUT = 4;
const LABEL = 18;
const SELECTS = new Set([3, 5, 6, 7, 8]);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A message's limits: content, the embeds' total, components, mentions and the number of files. */
export function messageLimitErrors(message: unknown, prefix: Path, fileCount: number): FieldError[] {
  if (!isObject(message)) return [];
  const errors: FieldError[] = [];
  if (text(message.content).length > MAX_CONTENT)
    errors.push(fieldError.maxLength([...prefix, 'content'], MAX_CONTENT));
  if (embedsSize(list(message.embeds)) > MAX_EMBEDS_TOTAL) {
    errors.push({
      path: [...prefix, 'embeds'],
      code: 'MAX_EMBED_SIZE_EXCEEDED',
      message: `Embed size exceeds maximum size of ${MAX_EMBEDS_TOTAL}`,
    });
  }
  if ((Number(message.flags ?? 0) & IS_COMPONENTS_V2) === 0)
    errors.push(...componentErrors(list(message.components), [...prefix, 'components']));
  errors.push(...allowedMentionsErrors(message.allowed_mentions, [...prefix, 'allowed_mentions']));
  if (fileCount > MAX_FILES) errors.push(fieldError.maxLength([...prefix, 'attachments'], MAX_FILES));
  return errors;
}

/** The characters Discord counts towards the 6,000 of one message's embeds. */
function embedsSize(embeds: unknown[]): number {
  let size = 0;
  for (const embed of embeds.filter(isObject)) {
    size += text(embed.title).length + text(embed.description).length;
    for (const field of list(embed.fields).filter(isObject))
      size += text(field.name).length + text(field.value).length;
    if (isObject(embed.footer)) size += text(embed.footer.text).length;
    if (isObject(embed.author)) size += text(embed.author.name).length;
  }
  return size;
}

/** Action rows of a message without Components V2: five rows at most, each five wide. */
function componentErrors(rows: unknown[], path: Path): FieldError[] {
  if (rows.length > MAX_ACTION_ROWS) return [fieldError.maxLength(path, MAX_ACTION_ROWS)];
  const errors: FieldError[] = [];
  const customIds = new Set<string>();
  rows.forEach((row, r) => {
    if (!isObject(row)) return;
    if (row.type !== 1) {
      errors.push({
        path: [...path, r],
        code: 'UNION_TYPE_CHOICES',
        message: 'Value of field "type" must be one of (1,).',
      });
      return;
    }
    errors.push(...rowErrors(list(row.components), [...path, r, 'components'], customIds));
  });
  return errors;
}

/**
 * One action row (of a message or a modal): a select menu or a text input fills it alone,
 * buttons take one fifth each; every custom id is new to the message; a button is a link with
 * a url and no custom id, or has a custom id; it shows a label or an emoji.
 */
export function rowErrors(components: unknown[], path: Path, customIds: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  let width = 0;
  components.forEach((component, c) => {
    if (!isObject(component)) return;
    const at = [...path, c];
    const wide = SELECTS.has(Number(component.type)) || component.type === TEXT_INPUT;
    width += wide ? MAX_ROW_WIDTH : 1;
    // More than five buttons is the schema's "between 1 and 5 in length".
    if (width > MAX_ROW_WIDTH && components.length <= MAX_ROW_WIDTH) {
      errors.push({
        path: at,
        code: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
        message: 'The specified component exceeds the maximum width',
      });
    }
    errors.push(...duplicateCustomId(component, at, customIds));
    if (component.type === BUTTON) errors.push(...buttonErrors(component, at));
    if (component.type === 3) errors.push(...selectErrors(component, at));
  });
  return errors;
}

/** A custom id another component of the message already has (recorded in `customIds` when new). */
function duplicateCustomId(component: Json, at: Path, customIds: Set<string>): FieldError[] {
  const customId = component.custom_id;
  if (typeof customId !== 'string') return [];
  if (!customIds.has(customId)) {
    customIds.add(customId);
    return [];
  }
  return [
    {
      path: [...at, 'custom_id'],
      code: 'COMPONENT_CUSTOM_ID_DUPLICATED',
      message: 'Component custom id was already specified',
    },
  ];
}

function buttonErrors(button: Json, at: Path): FieldError[] {
  const errors: FieldError[] = [];
  const hasCustomId = typeof button.custom_id === 'string';
  const hasUrl = typeof button.url === 'string';
  if (button.style === LINK_BUTTON && !hasUrl) errors.push(fieldError.required([...at, 'url']));
  if (button.style !== LINK_BUTTON && button.style !== PREMIUM_BUTTON && !hasCustomId) {
    errors.push({
      path: [...at, 'custom_id'],
      code: 'BUTTON_COMPONENT_CUSTOM_ID_REQUIRED',
      message: 'A custom id is required',
    });
  }
  if (hasCustomId && hasUrl) {
    errors.push({
      path: [...at, 'custom_id'],
      code: 'BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE',
      message: 'A custom id and url cannot both be specified',
    });
  }
  if (!text(button.label) && !isObject(button.emoji) && button.style !== PREMIUM_BUTTON)
    errors.push(fieldError.required([...at, 'label']));
  return errors;
}

function selectErrors(select: Json, at: Path): FieldError[] {
  const options = list(select.options).filter(isObject);
  const min = Number(select.min_values ?? 1);
  const max = Number(select.max_values ?? 1);
  const errors: FieldError[] = [];
  if (min > max) errors.push(fieldError.numberMax([...at, 'min_values'], max));
  if (options.length > 0 && max > options.length) errors.push(fieldError.minLength([...at, 'options'], max));
  const values = new Set<unknown>();
  options.forEach((option, o) => {
    if (values.has(option.value)) {
      errors.push({
        path: [...at, 'options', o],
        code: 'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED',
        message: 'The specified option value is already used',
      });
    }
    values.add(option.value);
  });
  if (options.filter((option) => option.default === true).length > max) {
    errors.push({
      path: [...at, 'options'],
      code: 'SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES',
      message: 'The specified number of default values exceeds the specified maximum values',
    });
  }
  return errors;
}

/** `parse: ["users"]` with a list of users (same for roles) is refused, not merged. */
function allowedMentionsErrors(mentions: unknown, path: Path): FieldError[] {
  if (!isObject(mentions)) return [];
  const parse = list(mentions.parse);
  return (['users', 'roles'] as const)
    .filter((kind) => parse.includes(kind) && list(mentions[kind]).length > 0)
    .map((kind) => ({
      path,
      code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
      message: `parse:["${kind}"] and ${kind}: [ids...] are mutually exclusive.`,
    }));
}

/** Autocomplete suggestions: a string choice's value holds at most 100 characters. */
export function autocompleteLimitErrors(data: unknown, prefix: Path): FieldError[] {
  if (!isObject(data)) return [];
  return list(data.choices).flatMap((choice, i) =>
    isObject(choice) && text(choice.value).length > MAX_CHOICE_VALUE
      ? [fieldError.maxLength([...prefix, 'choices', i, 'value'], MAX_CHOICE_VALUE)]
      : [],
  );
}

/** A modal: one to five rows (or labels), a text input alone in its row, custom ids unique. */
export function modalLimitErrors(data: unknown, prefix: Path): FieldError[] {
  if (!isObject(data)) return [];
  const components = list(data.components);
  if (components.length > MAX_MODAL_COMPONENTS)
    return [fieldError.badLength([...prefix, 'components'], 1, MAX_MODAL_COMPONENTS)];
  const customIds = new Set<string>();
  return components.flatMap((row, r) => {
    if (!isObject(row)) return [];
    const at = [...prefix, 'components', r];
    if (row.type === 1) return rowErrors(list(row.components), [...at, 'components'], customIds);
    // A label holds one component: only its custom id can clash.
    if (row.type === LABEL && isObject(row.component))
      return duplicateCustomId(row.component, [...at, 'component'], customIds);
    return [];
  });
}

/** A new message needs something to show: content, an embed, a component, a file, a sticker or a poll. */
export function isEmptyMessage(message: unknown, fileCount: number): boolean {
  if (fileCount > 0) return false;
  if (!isObject(message)) return true;
  return (
    text(message.content).length === 0 &&
    list(message.embeds).length === 0 &&
    list(message.components).length === 0 &&
    list(message.sticker_ids).length === 0 &&
    !isObject(message.poll)
  );
}
