import {
  ActionRowBuilder,
  type APIEmbed,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  DiscordAPIError,
  MessageFlags,
  ModalBuilder,
  RESTJSONErrorCodes,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import type {
  ButtonStyleName,
  DeferMode,
  EmbedSpec,
  LinkSpec,
  ModalSpec,
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

/** Discord notifies nobody a message mentions except the members it names in `notify`. */
function allowedMentions(notify: readonly string[] | undefined) {
  return { parse: [], users: [...new Set(notify ?? [])].slice(0, 100), repliedUser: false };
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
        buttons.slice(i, i + 5).map((b) => {
          const button = new ButtonBuilder()
            .setCustomId(b.customId)
            .setLabel(b.label)
            .setStyle(STYLES[b.style])
            .setDisabled(b.disabled ?? false);
          return b.emoji ? button.setEmoji(b.emoji) : button;
        }),
      ),
    );
  }
  const links = reply.links ?? [];
  for (let i = 0; i < links.length; i += 5) {
    rows.push(new ActionRowBuilder<ButtonBuilder>().addComponents(links.slice(i, i + 5).map(linkButton)));
  }
  return {
    content: reply.content ?? '',
    embeds: (reply.embeds ?? []).map(toEmbed),
    files: (reply.files ?? []).map((f) => new AttachmentBuilder(f.data, { name: f.name })),
    allowedMentions: allowedMentions(reply.notify),
    // An explicit empty list removes the components of an updated message.
    ...(reply.buttons || reply.select || reply.links ? { components: rows } : {}),
  };
}

function linkButton(link: LinkSpec): ButtonBuilder {
  const button = new ButtonBuilder().setStyle(ButtonStyle.Link).setURL(link.url).setLabel(link.label);
  return link.emoji ? button.setEmoji(link.emoji) : button;
}

/** A form as discord.js builds it: one text input a row. */
function toModal(spec: ModalSpec): ModalBuilder {
  return new ModalBuilder()
    .setCustomId(spec.customId)
    .setTitle(spec.title)
    .addComponents(
      spec.inputs.map((input) => {
        const box = new TextInputBuilder()
          .setCustomId(input.customId)
          .setLabel(input.label)
          .setStyle(input.style === 'paragraph' ? TextInputStyle.Paragraph : TextInputStyle.Short)
          .setRequired(input.required ?? true);
        if (input.placeholder) box.setPlaceholder(input.placeholder);
        if (input.value !== undefined) box.setValue(input.value);
        if (input.minLength !== undefined) box.setMinLength(input.minLength);
        if (input.maxLength !== undefined) box.setMaxLength(input.maxLength);
        return new ActionRowBuilder<TextInputBuilder>().addComponents(box);
      }),
    );
}

/** A component, or a form opened from one: its answer may update the message it came from. */
function onMessage(
  interaction: RepliableInteraction,
): interaction is Extract<RepliableInteraction, { update: unknown }> {
  return interaction.isMessageComponent() || (interaction.isModalSubmit() && interaction.isFromMessage());
}

/** Discord's answer to a second callback: the first one landed although its answer was lost. */
function alreadyAcknowledged(error: unknown): boolean {
  return (
    error instanceof DiscordAPIError &&
    error.code === RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged
  );
}

/**
 * Sends a Reply on a discord.js interaction whatever its state: a first reply, the edit of
 * a deferral, or a follow-up. An ephemeral reply after a public deferral deletes the
 * placeholder and follows up ephemerally, so errors never become public.
 *
 * The state moves only once Discord took the callback: a reply Discord refused leaves the
 * interaction unanswered, so the error reply that follows is still its first callback (a
 * follow-up to an unanswered interaction would fail, and the member see "This interaction
 * failed"). A first callback in flight holds back a deferral, which would be a second one.
 */
export class DiscordResponder implements Responder {
  state: Responder['state'] = 'fresh';
  #deferredEphemeral = false;
  #deferredUpdate = false;
  /** The first callback (a deferral or a reply) while Discord has not answered it. */
  #acknowledging: Promise<unknown> | null = null;

  constructor(private readonly interaction: RepliableInteraction) {}

  async defer(mode: DeferMode): Promise<void> {
    if (this.state !== 'fresh' || this.#acknowledging) {
      await this.#acknowledging?.catch(() => undefined);
      return;
    }
    const interaction = this.interaction;
    const silent = mode.update === true && onMessage(interaction);
    await this.#acknowledge(
      silent
        ? interaction.deferUpdate()
        : interaction.deferReply(mode.ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
      'deferred',
      () => {
        this.state = 'deferred';
        this.#deferredEphemeral = mode.ephemeral;
        this.#deferredUpdate = silent;
      },
    );
  }

  async send(reply: Reply): Promise<SentMessage | null> {
    // A deferral still in flight decides how this reply must be sent.
    await this.#acknowledging?.catch(() => undefined);
    const payload = toPayload(reply);
    const flags = reply.ephemeral ? MessageFlags.Ephemeral : undefined;
    const interaction = this.interaction;
    if (reply.modal) return this.#showModal(reply.modal);
    const landed = (message: { id: string } | null | undefined): SentMessage | null =>
      message && !reply.ephemeral ? { messageId: message.id } : null;
    if (this.state === 'fresh') {
      const response = await this.#acknowledge(
        reply.update && onMessage(interaction)
          ? interaction.update({ ...payload, withResponse: true })
          : interaction.reply({ ...payload, ...(flags ? { flags } : {}), withResponse: true }),
        'replied',
        () => {
          this.state = 'replied';
        },
      );
      return landed(response?.resource?.message);
    }
    if (this.state === 'deferred') {
      if (this.#deferredUpdate) {
        // After a silent acknowledgement the original reply is the component's message.
        const sent = reply.update
          ? await interaction.editReply(payload)
          : await interaction.followUp({ ...payload, ...(flags ? { flags } : {}) });
        this.state = 'replied';
        return landed(sent);
      }
      if (reply.ephemeral && !this.#deferredEphemeral) {
        await interaction.deleteReply();
        // The placeholder is gone: whatever comes next is a follow-up.
        this.state = 'replied';
        await interaction.followUp({ ...payload, flags: MessageFlags.Ephemeral });
        return null;
      }
      const sent = await interaction.editReply(payload);
      this.state = 'replied';
      return landed(sent);
    }
    return landed(await interaction.followUp({ ...payload, ...(flags ? { flags } : {}) }));
  }

  /** A form is a first callback of its own kind: Discord takes it before anything else only. */
  async #showModal(spec: ModalSpec): Promise<null> {
    const interaction = this.interaction;
    if (this.state !== 'fresh' || !('showModal' in interaction)) {
      throw new Error('a form can only be the first answer to a command or a component');
    }
    await this.#acknowledge(interaction.showModal(toModal(spec)), 'replied', () => {
      this.state = 'replied';
    });
    return null;
  }

  /**
   * Sends a first callback; `done` runs once Discord took it. "Already acknowledged" means it
   * did take it and its answer was lost (discord.js sent it again): it landed, and discord.js,
   * which counts only the answers it saw, is told so, or it would refuse every edit and
   * follow-up after it and leave the member looking at "thinking…".
   */
  async #acknowledge<T>(
    callback: Promise<T>,
    as: 'deferred' | 'replied',
    done: () => void,
  ): Promise<T | undefined> {
    const settled = callback.then(
      (value): T | undefined => {
        done();
        return value;
      },
      (error: unknown) => {
        if (!alreadyAcknowledged(error)) throw error;
        if (as === 'deferred') this.interaction.deferred = true;
        else this.interaction.replied = true;
        done();
        return undefined;
      },
    );
    this.#acknowledging = settled;
    try {
      return await settled;
    } finally {
      this.#acknowledging = null;
    }
  }
}
