import { DISCORD_ERRORS, fieldError, invalidFormBody, type Refusal } from './discordErrors.js';

/**
 * What Discord enforces of an interaction's life: one callback, within 3 seconds of the
 * dispatch, of a type that fits the interaction; the token's webhook (follow-ups, edits,
 * deletes) only once the callback landed, and for 15 minutes.
 */

/** Discord's interaction types the fake dispatches. */
export const INTERACTION = { command: 2, component: 3, autocomplete: 4, modalSubmit: 5 } as const;
type InteractionType = (typeof INTERACTION)[keyof typeof INTERACTION];

export interface DispatchedInteraction {
  id: string;
  token: string;
  type: InteractionType;
  channelId: string;
  /** The message a component (or a modal opened from one) belongs to. */
  messageId?: string;
  /** What the member did, for the reports: "/cookies give", "click cookies.bakery". */
  label: string;
  /** When the fake sent INTERACTION_CREATE on the gateway (performance.now()). */
  dispatchedAt: number;
  /** The callback Discord took, if any. */
  callback?: { type: number; at: number };
}

export interface LifecycleOptions {
  /** How long after the dispatch Discord takes the callback (Discord: 3 s). */
  callbackDeadlineMs: number;
  /** How long the interaction's token works for its webhook (Discord: 15 min). */
  tokenLifetimeMs: number;
}

/** The callback types Discord takes for each kind of interaction (of those the fake supports). */
function allowedCallbacks(interaction: DispatchedInteraction): number[] {
  switch (interaction.type) {
    case INTERACTION.command:
      return [4, 5, 9];
    case INTERACTION.component:
      return [4, 5, 6, 7, 9];
    case INTERACTION.autocomplete:
      return [8];
    case INTERACTION.modalSubmit:
      return interaction.messageId ? [4, 5, 6, 7] : [4, 5];
  }
}

export class InteractionLifecycle {
  readonly #byToken = new Map<string, DispatchedInteraction>();

  constructor(
    private readonly options: LifecycleOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  dispatched(interaction: DispatchedInteraction): void {
    this.#byToken.set(interaction.token, interaction);
  }

  get(token: string): DispatchedInteraction | undefined {
    return this.#byToken.get(token);
  }

  /** Discord's answer to a callback of `type`, or null when it takes it. */
  refuseCallback(id: string, token: string, type: number): Refusal | null {
    const interaction = this.#byToken.get(token);
    if (!interaction || interaction.id !== id) return DISCORD_ERRORS.unknownInteraction;
    if (interaction.callback) return DISCORD_ERRORS.alreadyAcknowledged;
    if (this.now() - interaction.dispatchedAt > this.options.callbackDeadlineMs)
      return DISCORD_ERRORS.unknownInteraction;
    const allowed = allowedCallbacks(interaction);
    // The fake's guess at the answer: Discord's docs say which types fit, not what it answers.
    if (!allowed.includes(type)) return invalidFormBody([fieldError.choices(['type'], allowed)]);
    return null;
  }

  /** The callback landed: the interaction is answered, and its webhook opens. */
  answered(token: string, type: number): void {
    const interaction = this.#byToken.get(token);
    if (interaction) interaction.callback = { type, at: this.now() };
  }

  /** Discord's answer to a use of the interaction's webhook, or null when it takes it. */
  refuseWebhook(applicationId: string, token: string, expectedApplicationId: string): Refusal | null {
    if (applicationId !== expectedApplicationId) return DISCORD_ERRORS.unknownWebhook;
    const interaction = this.#byToken.get(token);
    if (!interaction) return DISCORD_ERRORS.invalidWebhookToken;
    if (this.now() - interaction.dispatchedAt > this.options.tokenLifetimeMs)
      return DISCORD_ERRORS.invalidWebhookToken;
    if (!interaction.callback) return DISCORD_ERRORS.unknownWebhook;
    return null;
  }
}
