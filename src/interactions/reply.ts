/** What a command, a button or a post shows: the transport-neutral message the adapters render. */
export type ButtonStyleName = 'primary' | 'secondary' | 'success' | 'danger';

export interface ButtonSpec {
  customId: string;
  label: string;
  style: ButtonStyleName;
  /** Shown before the label (a unicode emoji). */
  emoji?: string;
  disabled?: boolean;
}

export interface SelectSpec {
  customId: string;
  placeholder: string;
  options: { label: string; value: string; description?: string }[];
}

export interface EmbedSpec {
  title?: string;
  description?: string;
  color?: number;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: string;
  /** Name of an attached file to show as the embed's image. */
  imageFile?: string;
}

/** A button that opens a web page in the member's browser (Discord's Link button): no id, no interaction. */
export interface LinkSpec {
  label: string;
  url: string;
  emoji?: string;
}

/** One text box of a form. */
export interface TextInputSpec {
  customId: string;
  label: string;
  /** One line, or a box for paragraphs. */
  style: 'short' | 'paragraph';
  /** The grey hint in the empty box: where a form tells the limits that matter. */
  placeholder?: string;
  /** Filled in already (the member may change it). */
  value?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
}

/**
 * A form (Discord's modal): a title and up to five text boxes. It can only be the first answer
 * to a command or a button, before anything else was sent; its submission comes back as an
 * interaction of kind `modal` routed to the component family of `customId`.
 */
export interface ModalSpec {
  customId: string;
  title: string;
  inputs: TextInputSpec[];
}

export interface FileSpec {
  name: string;
  data: Buffer;
}

export interface Reply {
  content?: string;
  embeds?: EmbedSpec[];
  files?: FileSpec[];
  buttons?: ButtonSpec[];
  /** One select menu under the message. */
  select?: SelectSpec;
  /** Link buttons, after the other buttons: every URL a member may open. */
  links?: LinkSpec[];
  /**
   * Opens a form instead of sending a message: every other field is ignored. Only as the first
   * answer (a command or component that opens one declares no `defer` and answers quickly).
   */
  modal?: ModalSpec;
  ephemeral?: boolean;
  /**
   * The members this message notifies: those of its mentions who asked to be told of it
   * (`deps.profiles.toNotify`). Every other mention stays a link and notifies nobody.
   */
  notify?: readonly string[];
  /** For components: replace the message the component is on instead of sending a new one. */
  update?: boolean;
  /**
   * Called once a public reply is sent, with the message it became: a feature records it to
   * edit that message later from a timer (a heist's crew, a poker board, a blackjack hand), so
   * the outcome replaces it even when nobody ever pressed one of its buttons. A failure here is
   * logged, never shown: the member already has the reply.
   */
  onSent?(sent: SentMessage): Promise<void>;
}

/** Where a public reply landed. */
export interface SentMessage {
  messageId: string;
}
