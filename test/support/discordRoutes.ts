import {
  ApplicationCommandAutocompleteCallbackRequestSchema,
  ApplicationCommandUpdateRequestSchema,
  CreateMessageInteractionCallbackRequestSchema,
  CreatePrivateChannelRequestSchema,
  IncomingWebhookRequestPartialSchema,
  IncomingWebhookUpdateRequestPartialSchema,
  MessageCreateRequestSchema,
  MessageEditRequestPartialSchema,
  ModalInteractionCallbackRequestSchema,
  UpdateMessageInteractionCallbackRequestSchema,
} from 'discord-api-spec/zod';
import * as z from 'zod/mini';
import { type FieldError, fieldError } from './discordErrors.js';
import {
  autocompleteLimitErrors,
  isEmptyMessage,
  messageLimitErrors,
  modalLimitErrors,
} from './discordLimits.js';
import { specFieldErrors } from './specErrors.js';

/**
 * The routes the fake serves, each with the request body Discord's published OpenAPI spec
 * (github.com/discord/discord-api-spec, through the npm package discord-api-spec) gives it,
 * plus the documented limits the spec does not carry.
 *
 * The spec's objects are not strict: a field Discord does not know passes, as on Discord,
 * which ignores it. discord.js itself sends fields the spec lacks (`enforce_nonce` in every
 * interaction reply, `tts` and `enforce_nonce` in every webhook edit: seen in the bot's own
 * requests), so strict objects would refuse the library's own payloads. (The package's `setStrictObject(true)` changes nothing anyway once imported:
 * its schemas are built when the module loads.)
 */

export type RouteName =
  | 'gatewayBot'
  | 'callback'
  | 'followUp'
  | 'getWebhookMessage'
  | 'editWebhookMessage'
  | 'deleteWebhookMessage'
  | 'getChannel'
  | 'createMessage'
  | 'editMessage'
  | 'putCommands'
  | 'putGuildCommands'
  | 'getMember'
  | 'addMemberRole'
  | 'removeMemberRole'
  | 'getUser'
  | 'createDm';

/** What Discord checks of one request's body: the problems, and whether it would be an empty message. */
export interface BodyCheck {
  problems: FieldError[];
  empty: boolean;
}

interface Route {
  name: RouteName;
  method: string;
  /** The path as the spec writes it. */
  template: string;
  check?: (body: unknown, fileCount: number) => BodyCheck;
}

/**
 * Discord takes `default_member_permissions` as a string of bits (the docs' type, and what
 * discord.js sends); the spec says integer. The one place the fake corrects the spec.
 */
const CommandSchema = z.extend(ApplicationCommandUpdateRequestSchema, {
  default_member_permissions: z.nullish(z.union([z.number(), z.string().check(z.regex(/^\d+$/))])),
});

/** The callback's schema by its `type`; Discord's callback types the fake supports. */
const CALLBACK_SCHEMAS: Record<number, z.ZodMiniType> = {
  4: CreateMessageInteractionCallbackRequestSchema,
  5: CreateMessageInteractionCallbackRequestSchema,
  6: UpdateMessageInteractionCallbackRequestSchema,
  7: UpdateMessageInteractionCallbackRequestSchema,
  8: ApplicationCommandAutocompleteCallbackRequestSchema,
  9: ModalInteractionCallbackRequestSchema,
};
export const CALLBACK_TYPES = Object.keys(CALLBACK_SCHEMAS).map(Number);

function dedupe(problems: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path.join('.')}:${p.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A message body: the documented limits first (they are the tighter ones), then the spec. */
function messageCheck(schema: z.ZodMiniType, options: { creates: boolean }) {
  return (body: unknown, fileCount: number): BodyCheck => ({
    problems: dedupe([...messageLimitErrors(body, [], fileCount), ...specFieldErrors(schema, body)]),
    empty: options.creates && isEmptyMessage(body, fileCount),
  });
}

function callbackCheck(body: unknown, fileCount: number): BodyCheck {
  const type = Number((body as { type?: unknown } | null)?.type);
  const schema = CALLBACK_SCHEMAS[type];
  if (!schema) return { problems: [fieldError.choices(['type'], CALLBACK_TYPES)], empty: false };
  const data = (body as { data?: unknown }).data;
  const limits =
    type === 8
      ? autocompleteLimitErrors(data, ['data'])
      : type === 9
        ? modalLimitErrors(data, ['data'])
        : messageLimitErrors(data, ['data'], fileCount);
  return {
    problems: dedupe([...limits, ...specFieldErrors(schema, body)]),
    empty: type === 4 && isEmptyMessage(data, fileCount),
  };
}

/** A bot opens a direct channel with one member: `recipient_id` (the spec's other fields are for group DMs). */
function createDmCheck(body: unknown): BodyCheck {
  const recipient = (body as { recipient_id?: unknown } | null)?.recipient_id;
  const missing =
    recipient === undefined || recipient === null ? [fieldError.required(['recipient_id'])] : [];
  return {
    problems: dedupe([...missing, ...specFieldErrors(CreatePrivateChannelRequestSchema, body)]),
    empty: false,
  };
}

function commandsCheck(body: unknown): BodyCheck {
  return { problems: specFieldErrors(z.array(CommandSchema), body), empty: false };
}

const ROUTES: Route[] = [
  { name: 'gatewayBot', method: 'GET', template: '/gateway/bot' },
  {
    name: 'callback',
    method: 'POST',
    template: '/interactions/{interaction_id}/{interaction_token}/callback',
    check: callbackCheck,
  },
  {
    name: 'followUp',
    method: 'POST',
    template: '/webhooks/{webhook_id}/{webhook_token}',
    check: messageCheck(IncomingWebhookRequestPartialSchema, { creates: true }),
  },
  {
    name: 'getWebhookMessage',
    method: 'GET',
    template: '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}',
  },
  {
    name: 'editWebhookMessage',
    method: 'PATCH',
    template: '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}',
    check: messageCheck(IncomingWebhookUpdateRequestPartialSchema, { creates: false }),
  },
  {
    name: 'deleteWebhookMessage',
    method: 'DELETE',
    template: '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}',
  },
  { name: 'getChannel', method: 'GET', template: '/channels/{channel_id}' },
  {
    name: 'createMessage',
    method: 'POST',
    template: '/channels/{channel_id}/messages',
    check: messageCheck(MessageCreateRequestSchema, { creates: true }),
  },
  {
    name: 'editMessage',
    method: 'PATCH',
    template: '/channels/{channel_id}/messages/{message_id}',
    check: messageCheck(MessageEditRequestPartialSchema, { creates: false }),
  },
  {
    name: 'putCommands',
    method: 'PUT',
    template: '/applications/{application_id}/commands',
    check: commandsCheck,
  },
  {
    name: 'putGuildCommands',
    method: 'PUT',
    template: '/applications/{application_id}/guilds/{guild_id}/commands',
    check: commandsCheck,
  },
  { name: 'getMember', method: 'GET', template: '/guilds/{guild_id}/members/{user_id}' },
  { name: 'addMemberRole', method: 'PUT', template: '/guilds/{guild_id}/members/{user_id}/roles/{role_id}' },
  {
    name: 'removeMemberRole',
    method: 'DELETE',
    template: '/guilds/{guild_id}/members/{user_id}/roles/{role_id}',
  },
  { name: 'getUser', method: 'GET', template: '/users/{user_id}' },
  { name: 'createDm', method: 'POST', template: '/users/@me/channels', check: createDmCheck },
];

// The package's types are its 450 kB TypeScript source, which the compiler would check as the
// project's own; the list of paths is all the fake needs of it.
const SPEC_MODULE = 'discord-api-spec';
const { pathsList } = (await import(SPEC_MODULE)) as { pathsList: Record<string, readonly string[]> };

// A route the spec does not list is one the fake made up: refused when this module loads.
for (const route of ROUTES) {
  if (!pathsList[route.method.toLowerCase()]?.includes(route.template))
    throw new Error(`Discord's spec has no route ${route.method} ${route.template}`);
}

const COMPILED = ROUTES.map((route) => ({
  route,
  pattern: new RegExp(`^${route.template.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
}));

export interface MatchedRoute {
  name: RouteName;
  params: Record<string, string>;
  check?: Route['check'];
}

/** The route a request is for, with its path parameters by the spec's names; null when the fake has none. */
export function matchRoute(method: string, path: string): MatchedRoute | null {
  for (const { route, pattern } of COMPILED) {
    if (route.method !== method) continue;
    const match = pattern.exec(path);
    if (!match) continue;
    const params = Object.fromEntries(
      Object.entries(match.groups ?? {}).map(([key, value]) => [key, decodeURIComponent(value)]),
    );
    return { name: route.name, params, check: route.check };
  }
  return null;
}
