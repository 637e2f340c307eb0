/**
 * Types for the zod schemas of discord-api-spec the fake uses: the package ships them as plain
 * JavaScript (its `types` entry points at the .js file), so TypeScript sees no declarations.
 */
declare module 'discord-api-spec/zod' {
  import type { ZodMiniObject, ZodMiniType } from 'zod/mini';

  export const ApplicationCommandAutocompleteCallbackRequestSchema: ZodMiniType;
  export const ApplicationCommandUpdateRequestSchema: ZodMiniObject;
  export const AttachmentResponseSchema: ZodMiniType;
  export const CreateMessageInteractionCallbackRequestSchema: ZodMiniType;
  export const CreatePrivateChannelRequestSchema: ZodMiniType;
  export const IncomingWebhookRequestPartialSchema: ZodMiniType;
  export const IncomingWebhookUpdateRequestPartialSchema: ZodMiniType;
  export const MessageCreateRequestSchema: ZodMiniType;
  export const MessageEditRequestPartialSchema: ZodMiniType;
  export const ModalInteractionCallbackRequestSchema: ZodMiniType;
  export const UpdateMessageInteractionCallbackRequestSchema: ZodMiniType;
}
