import {
  ActionRowBuilder,
  type APIEmbed,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  StringSelectMenuBuilder,
} from 'discord.js';
import type {
  ButtonStyleName,
  DeferMode,
  EmbedSpec,
  Reply,
  Responder,
  SentMessage,
} from '../interactions/types.js';
import type { RepliableInteraction } from './toInvocation.js';

const STYLES: Record<ButtonStyleName, ButtonStyle> = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  success: ButtonStyle.Success,
  danger: ButtonStyle.Danger,
};

function toEmbed(spec: EmbedSpec): APIEmbed {
  return {
    title: spec.title,
    description: spec.description,
    color: spec.color,
    fields: spec.fields,
    footer: spec.footer ? { text: spec.footer } : undefined,
    image: spec.imageFile ? { url: `attachment://${spec.imageFile}` } : undefined,
  };
}

/** A Reply as discord.js message options (interaction replies and channel posts alike). */
export function toPayload(reply: Reply) {
  const rows: ActionRowBuilder<ButtonBuilder | StringSelectMenuBuilder>[] = [];
  if (reply.select) {
    const menu = new StringSelectMenuBuilder()
      .setCustomId(reply.select.customId)
      .setPlaceholder(reply.select.placeholder)
      .addOptions(reply.select.options);
    rows.push(new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu));
  }
  const buttons = reply.buttons ?? [];
  for (let i = 0; i < buttons.length; i += 5) {
    rows.push(
      new ActionRowBuilder<ButtonBuilder | StringSelectMenuBuilder>().addComponents(
        buttons.slice(i, i + 5).map((b) =>
          new ButtonBuilder()
            .setCustomId(b.customId)
            .setLabel(b.label)
            .setStyle(STYLES[b.style])
            .setDisabled(b.disabled ?? false),
        ),
      ),
    );
  }
  return {
    content: reply.content ?? '',
    embeds: (reply.embeds ?? []).map(toEmbed),
    files: (reply.files ?? []).map((f) => new AttachmentBuilder(f.data, { name: f.name })),
    // An explicit empty list removes the components of an updated message.
    ...(reply.buttons || reply.select ? { components: rows } : {}),
  };
}

/**
 * Sends a Reply on a discord.js interaction whatever its state: a first reply, the edit of
 * a deferral, or a follow-up. An ephemeral reply after a public deferral deletes the
 * placeholder and follows up ephemerally, so errors never become public.
 */
export class DiscordResponder implements Responder {
  state: Responder['state'] = 'fresh';
  #deferredEphemeral = false;
  #deferredUpdate = false;
  #deferring: Promise<void> | null = null;

  constructor(private readonly interaction: RepliableInteraction) {}

  async defer(mode: DeferMode): Promise<void> {
    if (this.state !== 'fresh') return;
    const interaction = this.interaction;
    const silent = mode.update === true && interaction.isMessageComponent();
    const acknowledge = silent
      ? interaction.deferUpdate()
      : interaction.deferReply(mode.ephemeral ? { flags: MessageFlags.Ephemeral } : {});
    this.#deferring ??= acknowledge
      .then(() => {
        this.state = 'deferred';
        this.#deferredEphemeral = mode.ephemeral;
        this.#deferredUpdate = silent;
      })
      .finally(() => {
        this.#deferring = null;
      });
    await this.#deferring;
  }

  async send(reply: Reply): Promise<SentMessage | null> {
    // A deferral still in flight decides how this reply must be sent.
    await this.#deferring?.catch(() => undefined);
    const payload = toPayload(reply);
    const flags = reply.ephemeral ? MessageFlags.Ephemeral : undefined;
    const interaction = this.interaction;
    const landed = (message: { id: string } | null | undefined): SentMessage | null =>
      message && !reply.ephemeral ? { messageId: message.id } : null;
    if (this.state === 'fresh') {
      this.state = 'replied';
      const response =
        reply.update && interaction.isMessageComponent()
          ? await interaction.update({ ...payload, withResponse: true })
          : await interaction.reply({ ...payload, ...(flags ? { flags } : {}), withResponse: true });
      return landed(response.resource?.message);
    }
    if (this.state === 'deferred') {
      this.state = 'replied';
      if (this.#deferredUpdate) {
        // After a silent acknowledgement the original reply is the component's message.
        if (reply.update) return landed(await interaction.editReply(payload));
        return landed(await interaction.followUp({ ...payload, ...(flags ? { flags } : {}) }));
      }
      if (reply.ephemeral && !this.#deferredEphemeral) {
        await interaction.deleteReply();
        await interaction.followUp({ ...payload, flags: MessageFlags.Ephemeral });
        return null;
      }
      return landed(await interaction.editReply(payload));
    }
    return landed(await interaction.followUp({ ...payload, ...(flags ? { flags } : {}) }));
  }
}
