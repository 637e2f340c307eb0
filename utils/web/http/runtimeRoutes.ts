import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '../../../src/errors.js';
import { parseQuery, parseWith } from '../../../src/http/params.js';
import { requestLocale, type Translator } from '../../../src/i18n/i18n.js';
import { serverTranslator } from '../../../src/i18n/serverLanguage.js';
import { discordToPlain } from '../../../src/i18n/webText.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import type { ChannelSettingKey, PostableChannel } from '../../../src/posting/channelPoster.js';
import type { SettingChange, SettingView } from '../../../src/runtimeConfig/runtimeConfig.js';
import { type SettingKey, type SettingKind, showSetting } from '../../../src/runtimeConfig/settings.js';
import { refuseReusedKey } from './adminWrite.js';
import { IDEMPOTENCY_KEY, type WebActor, type WebGate } from './gate.js';

/** A setting's key in the path: `cookies.give_max`, `place_channel`. */
const keyParams = z.object({ key: z.string().min(1).max(100) }).strict();
/** The value as an admin types it in `/settings set` (same length), and the revision they read. */
const changeBody = z
  .object({
    value: z.string().min(1).max(100),
    revision: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

/** Names of channels and of the members who changed settings, for what a page shows. */
interface Names {
  channels: PostableChannel[] | null;
  members: Map<string, string>;
}

/**
 * Admins: every runtime setting, and changing one, as `/settings show` and `set` do. A
 * change names the revision its page read, so two admins' tabs cannot overwrite each other
 * unseen (SETTING_STALE says what the other set).
 */
export function runtimeRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { runtimeConfig } = deps;
  const { signedIn, fromThePage, withinLimits } = gate;
  const translatorFor = (request: FastifyRequest) =>
    deps.i18n.for(requestLocale(request.headers['accept-language']));

  app.get('/api/admin/runtime', async (request) => {
    await signedIn(request, 'admin');
    parseQuery({}, request.query);
    const i18n = translatorFor(request);
    const settings = await runtimeConfig.list();
    const names = await namesOf(
      deps,
      settings.map((s) => s.updatedBy),
    );
    const features = new Map<string, ReturnType<typeof settingJson>[]>();
    for (const s of settings)
      features.set(s.feature, [...(features.get(s.feature) ?? []), settingJson(s, i18n, names)]);
    return {
      features: [...features].map(([feature, list]) => ({ feature, settings: list })),
      channels: names.channels,
    };
  });

  app.post('/api/admin/runtime/:key', async (request) => {
    const actor = await signedIn(request, 'admin');
    fromThePage(request);
    parseQuery({}, request.query);
    const idempotencyKey = parseWith(IDEMPOTENCY_KEY, request.headers['idempotency-key'], 'Idempotency-Key');
    const body = parseWith(changeBody, request.body);
    const key = runtimeConfig.known(parseWith(keyParams, request.params).key);
    runtimeConfig.parse(key, body.value);
    await withinLimits(request, actor);
    await refuseReusedKey(deps, request, { actor, key: idempotencyKey, body: { key, ...body } });
    const i18n = translatorFor(request);
    const opId = `runtime.set:web:${actor.id}:${idempotencyKey}`;
    const change = await runtimeConfig
      .set(key, body.value, actor.id, { revision: body.revision, opId })
      .catch(async (error: unknown) => {
        if (!isAppError(error, 'SETTING_STALE')) throw error;
        throw await staleForThePage(deps, error, i18n);
      });
    // A repeat of a change already made answers it again, without a second audit line.
    if (!change.replayed) await recordChange(deps, change, actor, opId);
    const names = await namesOf(deps, []);
    const warning = await missingWarning(deps, change, i18n, names);
    return {
      key: change.key,
      value: change.after,
      shown: shownOnThePage(change.after, i18n, names, change.kind),
      revision: change.revision,
      updated_by: { id: actor.id, name: actor.name },
      updated_at: change.updatedAt.toISOString(),
      ...(warning ? { warning } : {}),
    };
  });
}

/** The channels to pick from, and the names of the members who changed settings. */
async function namesOf(deps: BotDeps, memberIds: (string | null)[]): Promise<Names> {
  const ids = [...new Set(memberIds.filter((id): id is string => id !== null))];
  const [channels, members] = await Promise.all([deps.poster.postableChannels(), deps.profiles.names(ids)]);
  return { channels, members };
}

/** The refusal as the page shows it: the other admin by name, the value without Discord's markup. */
async function staleForThePage(deps: BotDeps, error: AppError, i18n: Translator): Promise<AppError> {
  const { updatedBy } = error.context;
  const names = await namesOf(deps, [typeof updatedBy === 'string' ? updatedBy : null]);
  const by = typeof updatedBy === 'string' ? (names.members.get(updatedBy) ?? updatedBy) : null;
  const { kind } = error.context;
  const shown = shownOnThePage(
    error.context.value,
    i18n,
    names,
    typeof kind === 'string' ? (kind as SettingKind) : undefined,
  );
  return new AppError('SETTING_STALE', error.detail, { ...error.context, by, shown });
}

/** The audit line, in the server's language, as `/settings set` writes it. */
async function recordChange(
  deps: BotDeps,
  change: SettingChange,
  actor: WebActor,
  opId: string,
): Promise<void> {
  const serverI18n = await serverTranslator(deps);
  await deps.services.admin.record({
    id: opId,
    kind: 'runtime.set',
    actorId: actor.id,
    text: serverI18n.t('admin:audit.settingChanged', {
      actor: actor.id,
      key: change.key,
      before: showSetting(change.before, serverI18n, change.kind),
      after: showSetting(change.after, serverI18n, change.kind),
    }),
  });
}

/** A channel the bot cannot post in is said now, not when its first post fails. */
async function missingWarning(
  deps: BotDeps,
  change: SettingChange,
  i18n: Translator,
  names: Names,
): Promise<string | null> {
  if (change.kind !== 'channel' || typeof change.after !== 'string') return null;
  const missing = await deps.poster.missingPermissions(change.key as ChannelSettingKey);
  if (missing.length === 0) return null;
  deps.log.warn(
    { event: 'post.permissions_missing', setting: change.key, channelId: change.after, missing },
    `the bot lacks ${missing.join(', ')} in channel ${change.after} (${change.key})`,
  );
  const permissions = new Intl.ListFormat(i18n.locale, { style: 'long', type: 'conjunction' }).format(
    missing.map((name) => i18n.t(`core:permissions.${name}`)),
  );
  return withoutMarkup(i18n.t('admin:set.missing', { channel: change.after, permissions }), names);
}

function settingJson(s: SettingView, i18n: Translator, names: Names) {
  return {
    key: s.key as SettingKey,
    kind: s.kind,
    description: discordToPlain(i18n.t(s.description), i18n.locale, new Date()),
    value: s.value,
    // `global`: one value for every server; `server`: this is the default, and a server may set its own.
    scope: s.scope,
    shown: shownOnThePage(s.value, i18n, names, s.kind),
    default: s.default,
    ...(s.limits ? { min: s.limits.min, max: s.limits.max } : {}),
    revision: s.revision,
    updated_by: s.updatedBy ? { id: s.updatedBy, name: names.members.get(s.updatedBy) ?? null } : null,
    updated_at: s.updatedAt?.toISOString() ?? null,
  };
}

/**
 * A value as an admin reads it (on/off, a number, off), a channel as `#name` or its id, a role
 * as its id (the page has no names of roles: the transport lists channels only).
 */
function shownOnThePage(value: unknown, i18n: Translator, names: Names, kind?: SettingKind): string {
  return withoutMarkup(showSetting(value, i18n, kind), names);
}

/** Discord's channel and role mentions as the page can show them. */
function withoutMarkup(text: string, names: Names): string {
  return text
    .replace(/<#(\d+)>/g, (_, id: string) => {
      const channel = names.channels?.find((c) => c.id === id);
      return channel ? `#${channel.name}` : id;
    })
    .replace(/<@&(\d+)>/g, '$1');
}
