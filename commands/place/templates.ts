import { ApplicationCommandOptionType, ChannelType } from 'discord.js';
import { z } from 'zod';
import { invalidInputText } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import { resolveLocale, type Translator } from '../../src/i18n/i18n.js';
import type { Reply } from '../../src/interactions/reply.js';
import {
  type AttachmentRef,
  AttachmentUnreadable,
  type Autocomplete,
  type CommandContext,
  type Subcommand,
} from '../../src/interactions/types.js';
import { overviewView, renderCanvasPicture } from '../../src/render/canvasPicture.js';
import type { TextRecorder } from '../../src/render/canvasTools.js';
import { decodeImage, ImageTooLarge, UnreadableImage } from '../../src/render/templateImages.js';
import { SNOWFLAKE_PATTERN } from '../../src/snowflake.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { colorName } from '../../utils/place/palette.js';
import {
  type CanvasReader,
  type Progress,
  type TemplateArt,
  templateProgress,
  templateView,
  type WrongPixel,
} from '../../utils/place/templateArt.js';
import { artOf, type TemplateDoc } from '../../utils/place/templateStore.js';
import { MAX_TEMPLATE_BYTES, MAX_TEMPLATE_NAME, MAX_TEMPLATE_SIDE } from '../../utils/place/templates.js';
import { parseOptions } from '../options.js';
import { fixButton } from './templateFix.js';
import { captionDate, PICTURE_SIDE } from './view.js';

/** How many wrong pixels `/place template next` names. */
const NEXT_SHOWN = 5;

const nameOption = (required: boolean) =>
  ({
    type: ApplicationCommandOptionType.String,
    ...localized(PLACE_MESSAGES, 'commands.templateName'),
    required,
    max_length: MAX_TEMPLATE_NAME,
    autocomplete: true,
  }) as const;

/** The templates whose names contain what the member typed, as Discord's suggestions. */
const templateNames: Record<string, Autocomplete> = {
  async name({ deps }, typed) {
    const needle = typed.trim().toLowerCase();
    const templates = await deps.services.place.templates.list();
    return templates.filter((t) => t.key.includes(needle)).map((t) => ({ name: t.name, value: t.name }));
  },
};

/** A role's or channel's id, as Discord sends the option (or a typed mention in the console). */
const snowflakeOf = (prefix: string) =>
  z
    .string()
    .transform((text) => text.replace(new RegExp(`^<${prefix}(\\d+)>$`), '$1'))
    .pipe(z.string().regex(SNOWFLAKE_PATTERN));

/** The template's one-line description: name, place, size, faction. */
function describe(template: Omit<TemplateDoc, 'pixels'>, i18n: Translator) {
  return i18n.t('place:templates.where', {
    name: template.name,
    x: template.x,
    y: template.y,
    width: template.width,
    height: template.height,
    role: template.roleId,
  });
}

function progressText(progress: Progress, i18n: Translator): string {
  return i18n.t('place:templates.progress', {
    count: progress.total,
    right: i18n.number(progress.right),
    total: i18n.number(progress.total),
    percent: i18n.number(progress.percent),
  });
}

/**
 * The template over the canvas, as `/place template show` posts it: right pixels in colour, wrong
 * ones pale in the colour they need, the rest of the canvas dimmed; with its progress.
 */
export function renderTemplatePicture(
  i18n: Translator,
  board: CanvasReader,
  template: TemplateArt & { name: string },
  at: Date,
  record?: TextRecorder,
): Promise<Buffer> {
  const view = templateView(board, template);
  return renderCanvasPicture(view, view.colors, {
    view: overviewView({ width: view.width, height: view.height, pixels: view.marked }, 0, PICTURE_SIDE),
    caption: {
      title: i18n.t('place:templates.title', { name: template.name }),
      date: captionDate(i18n, at),
      lines: [progressText(templateProgress(board, template), i18n), i18n.t('place:templates.legend')],
    },
    outlines: [
      {
        x1: template.x,
        y1: template.y,
        x2: template.x + template.width - 1,
        y2: template.y + template.height - 1,
      },
    ],
    ...(record ? { record } : {}),
  });
}

async function templatePicture(
  ctx: CommandContext,
  template: TemplateDoc,
): Promise<Pick<Reply, 'embeds' | 'files'>> {
  const board = await ctx.deps.services.place.board();
  const png = await renderTemplatePicture(
    ctx.i18n,
    board,
    { ...artOf(template), name: template.name },
    ctx.deps.clock.now(),
  );
  return {
    embeds: [
      { title: ctx.i18n.t('place:templates.title', { name: template.name }), imageFile: 'template.png' },
    ],
    files: [{ name: 'template.png', data: png }],
  };
}

/** The attachment's pixels, refused with the numbers when the file is too large, unreadable or not an image. */
async function readImage(ctx: CommandContext, ref: AttachmentRef) {
  const side = MAX_TEMPLATE_SIDE;
  if ((ref.width ?? 0) > side || (ref.height ?? 0) > side) {
    throw invalidInputText(`${ref.width}×${ref.height} image`, 'place:templates.errors.tooLarge', {
      width: ref.width ?? 0,
      height: ref.height ?? 0,
      max: side,
    });
  }
  const file = await ctx.deps.attachments.read(ref, MAX_TEMPLATE_BYTES).catch((error: unknown) => {
    if (!(error instanceof AttachmentUnreadable)) throw error;
    throw error.reason === 'too_large'
      ? invalidInputText(`${ref.size} bytes`, 'place:templates.errors.fileTooLarge', {
          size: ctx.i18n.number(Math.ceil(ref.size / 1024)),
          max: ctx.i18n.number(MAX_TEMPLATE_BYTES / 1024),
        })
      : invalidInputText('attachment unreachable', 'place:templates.errors.unreachable');
  });
  return decodeImage(file, side).catch((error: unknown) => {
    if (error instanceof ImageTooLarge) {
      throw invalidInputText(error.message, 'place:templates.errors.tooLarge', {
        width: error.width,
        height: error.height,
        max: side,
      });
    }
    if (!(error instanceof UnreadableImage)) throw error;
    throw invalidInputText(error.message, 'place:templates.errors.notImage', { file: ref.filename });
  });
}

/**
 * Whether the member may register and remove any template: a moderator, or a holder of the
 * role `place_template_role` names.
 */
async function mayManage(ctx: CommandContext): Promise<boolean> {
  if (ctx.actor.isModerator) return true;
  const role = await ctx.deps.runtimeConfig.get('place_template_role');
  return role !== null && ctx.invocation.roleIds.includes(role);
}

/** `/place template add name image x y faction [channel]`: a faction's artwork at a place, with grief alerts. */
export const templateAdd: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.templateAdd'),
    options: [
      { ...nameOption(true), autocomplete: false },
      {
        type: ApplicationCommandOptionType.Attachment,
        ...localized(PLACE_MESSAGES, 'commands.templateImage'),
        required: true,
      },
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(PLACE_MESSAGES, 'commands.templateX'),
        required: true,
        min_value: 0,
        max_value: 2_047,
      },
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(PLACE_MESSAGES, 'commands.templateY'),
        required: true,
        min_value: 0,
        max_value: 2_047,
      },
      {
        type: ApplicationCommandOptionType.Role,
        ...localized(PLACE_MESSAGES, 'commands.templateFaction'),
        required: true,
      },
      {
        type: ApplicationCommandOptionType.Channel,
        ...localized(PLACE_MESSAGES, 'commands.templateChannel'),
        channel_types: [ChannelType.GuildText],
      },
    ],
  },
  defer: { ephemeral: false },
  async run(ctx) {
    const { deps, invocation, actor, i18n } = ctx;
    const options = parseOptions(
      z.object({
        name: z.string().max(MAX_TEMPLATE_NAME),
        x: z.number().int().min(0),
        y: z.number().int().min(0),
        faction: snowflakeOf('@&'),
        channel: snowflakeOf('#').optional(),
      }),
      invocation,
    );
    if (!(await mayManage(ctx))) {
      const role = await deps.runtimeConfig.get('place_template_role');
      throw invalidInputText(
        'may not register templates',
        role ? 'place:templates.errors.roleNeeded' : 'place:templates.errors.moderatorsOnly',
        { role: role ?? '' },
      );
    }
    const channelId = options.channel ?? invocation.channelId ?? null;
    if (!channelId) throw invalidInputText('no channel', 'place:templates.errors.noChannel');
    const ref = invocation.attachments?.image;
    if (!ref) throw invalidInputText('no image', 'place:templates.errors.noImage');
    const image = await readImage(ctx, ref);
    const template = await deps.services.place.templates.add({
      id: invocation.id,
      name: options.name,
      x: options.x,
      y: options.y,
      image,
      roleId: options.faction,
      channelId,
      guildId: invocation.guildId,
      locale: resolveLocale(invocation.guildLocale ?? invocation.locale),
      by: actor.id,
    });
    const lines = [
      i18n.t('place:templates.added', { where: describe(template, i18n), channel: channelId }),
      ...(template.exact < template.opaque
        ? [
            i18n.t('place:templates.converted', {
              count: template.opaque - template.exact,
              n: i18n.number(template.opaque - template.exact),
            }),
          ]
        : []),
      i18n.t('place:templates.nextHint', { name: template.name }),
    ];
    return {
      content: lines.join('\n'),
      ...(await templatePicture(ctx, template)),
    };
  },
};

/** `/place template remove name`: its creator, a moderator or a holder of the template role. */
export const templateRemove: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.templateRemove'),
    options: [nameOption(true)],
  },
  autocomplete: templateNames,
  async run(ctx) {
    const { deps, invocation, actor, i18n } = ctx;
    const { name } = parseOptions(z.object({ name: z.string() }), invocation);
    const removed = await deps.services.place.templates.remove(name, {
      id: actor.id,
      mayManage: await mayManage(ctx),
    });
    return {
      ephemeral: true,
      content: i18n.t('place:templates.removed', { where: describe(removed, i18n) }),
    };
  },
};

/** `/place template show name`: the artwork over the canvas, and how much is right. */
export const templateShow: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.templateShow'),
    options: [nameOption(true)],
  },
  autocomplete: templateNames,
  defer: { ephemeral: false },
  async run(ctx) {
    const { deps, invocation, i18n } = ctx;
    const { name } = parseOptions(z.object({ name: z.string() }), invocation);
    const template = await deps.services.place.templates.find(name);
    return {
      content: describe(template, i18n),
      ...(await templatePicture(ctx, template)),
    };
  },
};

/** `/place template next [name]`: the wrong pixels nearest to the member's last pixel, with their colours. */
export const templateNext: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.templateNext'),
    options: [nameOption(false)],
  },
  autocomplete: templateNames,
  async run(ctx) {
    const { deps, invocation, actor, i18n } = ctx;
    const { name } = parseOptions(z.object({ name: z.string().optional() }), invocation);
    const templates = deps.services.place.templates;
    const template = await templates.forMember(name, invocation.roleIds);
    if (!template) {
      const all = await templates.list();
      throw invalidInputText('no faction template', 'place:templates.errors.noFaction', {
        count: all.length,
        names: all.map((t) => t.name).join(', ') || '—',
      });
    }
    const last = await deps.services.place.lastPixelOf(actor.id);
    const { wrong, progress, from } = await templates.next(template, last, NEXT_SHOWN);
    const head = i18n.t('place:templates.title', { name: template.name });
    if (wrong.length === 0) {
      return {
        ephemeral: true,
        content: `**${head}**\n${i18n.t('place:templates.done', { name: template.name })}`,
      };
    }
    const lines = wrong.map((p, i) =>
      i18n.t('place:templates.nextLine', {
        n: i + 1,
        x: p.x,
        y: p.y,
        color: colorName(p.color, i18n.locale),
        now: colorName(p.now, i18n.locale),
      }),
    );
    const origin = last
      ? i18n.t('place:templates.fromLast', { x: from.x, y: from.y })
      : i18n.t('place:templates.fromMiddle', { x: from.x, y: from.y });
    // The nearest pixel in one press, paid with this command's id: a second press is the same placement.
    const [first] = wrong as [WrongPixel];
    const fix = { op: invocation.id, owner: actor.id, x: first.x, y: first.y, color: first.color };
    return {
      ephemeral: true,
      content: [`**${head}** · ${progressText(progress, i18n)}`, origin, ...lines].join('\n'),
      buttons: [
        {
          customId: fixButton.build(fix),
          label: i18n.t('place:templates.fix', {
            x: first.x,
            y: first.y,
            color: colorName(first.color, i18n.locale),
          }),
          style: 'primary',
        },
      ],
    };
  },
};

/** `/place template list`: every template, with its faction and progress. */
export const templateList: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.templateList'),
  },
  async run({ deps, i18n }) {
    const all = await deps.services.place.templates.withProgress();
    if (all.length === 0) return { ephemeral: true, content: i18n.t('place:templates.none') };
    // Discord caps a message at 2,000 characters: the oldest templates that fit, then how many more.
    let content = i18n.t('place:templates.list', { count: all.length });
    let shown = 0;
    for (const { template, progress } of all) {
      const line = `\n• ${describe(template, i18n)} · ${progressText(progress, i18n)}`;
      if (content.length + line.length > 1_850) break;
      content += line;
      shown++;
    }
    if (shown < all.length) content += `\n${i18n.t('place:templates.more', { count: all.length - shown })}`;
    return { ephemeral: true, content };
  },
};

/** In Discord's order: register, look, work, then remove. */
export const TEMPLATE_SUBCOMMANDS = [templateAdd, templateShow, templateNext, templateList, templateRemove];
