import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../../src/http/contract.js';
import { parseQuery, parseWith } from '../../../src/http/params.js';
import { requestLocale, type Translator } from '../../../src/i18n/i18n.js';
import { serverTranslator } from '../../../src/i18n/serverLanguage.js';
import { discordToPlain } from '../../../src/i18n/webText.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { SNOWFLAKE_PATTERN } from '../../../src/snowflake.js';
import { EFFECT_NAMES, type EffectName } from '../../shop/effects/registry.js';
import { describeChanges } from '../../shop/itemChanges.js';
import type { ItemFields, ShopItemDoc } from '../../shop/itemStore.js';
import { adminWrite, refuseReusedKey } from './adminWrite.js';
import type { WebActor, WebGate } from './gate.js';

const snowflake = (what: string) =>
  z.string().regex(SNOWFLAKE_PATTERN, { error: `${what} (15 to 21 digits)` });
const guild = snowflake('a server id');
const role = snowflake('a role id');
/** A whole number the shop bounds itself (its refusal names the field and the bounds); null: no limit. */
const whole = z.number().int();
const limit = whole.nullable();
/** The terms a moderator sets, as `/shop add-role|add-item|edit` take them. */
const terms = {
  name: z.string().max(100).optional(),
  price: whole.optional(),
  stock: limit.optional(),
  per_member: limit.optional(),
  required_role_id: role.nullable().optional(),
  hours: limit.optional(),
  description: z.string().max(400).optional(),
};
const addBody = z
  .object({
    guild,
    kind: z.enum(['role', 'item']),
    role_id: role.optional(),
    effect: z.enum(EFFECT_NAMES as [EffectName, ...EffectName[]]).optional(),
    ...terms,
  })
  .strict();
const editBody = z.object({ guild, ...terms }).strict();
const removeBody = z.object({ guild }).strict();
/** An item's id, as the shelf lists it. */
const itemParams = z
  .object({ id: z.string().regex(/^it[0-9a-f]{10}$/, { error: 'an item id (it…)' }) })
  .strict();

/**
 * Each server's shop on the moderators' portal, as `/shop add-role|add-item|edit|remove`: the
 * same service calls, the same audit lines in the server's language, once per Idempotency-Key.
 * A moderator keeps the shops of the servers the bot has seen them in.
 */
export function shopRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { shop } = deps.services;
  const readerOf = (request: FastifyRequest) =>
    deps.i18n.for(requestLocale(request.headers['accept-language']));

  app.get('/api/admin/shop', async (request) => {
    const actor = await gate.signedIn(request, 'moderator');
    const query = parseQuery({ guild: guild.optional() }, request.query);
    const servers = await deps.serverMembers.serversOf(actor.id);
    const chosen = query.guild ?? servers[0] ?? null;
    const i18n = readerOf(request);
    const effects = EFFECT_NAMES.map((name) => ({ name, label: i18n.t(`shop:effects.${name}.name`) }));
    if (chosen === null) return { servers, guild: null, effects, items: [] };
    refuseOtherServer(servers, chosen);
    const items = await shop.shelf(chosen);
    return { servers, guild: chosen, effects, items: items.map((item) => itemJson(item, i18n)) };
  });

  app.post('/api/admin/shop/items', async (request) => {
    const { actor, key, body } = await adminWrite(gate, request, 'moderator', addBody);
    refuseOtherServer(await deps.serverMembers.serversOf(actor.id), body.guild);
    await gate.withinLimits(request, actor);
    await refuseReusedKey(deps, request, { actor, key, body });
    const serverI18n = await serverTranslator(deps);
    const item = await shop.addItem(newItem(body, actor, key, serverI18n));
    await audit(deps, serverI18n, actor, key, 'shop.add', item.roleId ? 'addedRole' : 'addedItem', item, {
      role: item.roleId,
    });
    return { item: itemJson(item, readerOf(request)) };
  });

  app.post('/api/admin/shop/items/:id', async (request) => {
    const { actor, key, body } = await adminWrite(gate, request, 'moderator', editBody);
    const { id } = parseWith(itemParams, request.params);
    refuseOtherServer(await deps.serverMembers.serversOf(actor.id), body.guild);
    await gate.withinLimits(request, actor);
    await refuseReusedKey(deps, request, { actor, key, body: { id, ...body } });
    const before = await shop.find(body.guild, id);
    const after = await shop.editItem({ guildId: body.guild, item: id, fields: changedFields(body) });
    const serverI18n = await serverTranslator(deps);
    const changes = describeChanges(before, after, serverI18n);
    if (changes.length > 0)
      await audit(deps, serverI18n, actor, key, 'shop.edit', 'edited', after, {
        changes: changes.join(', '),
      });
    const i18n = readerOf(request);
    return {
      item: itemJson(after, i18n),
      changes: describeChanges(before, after, i18n).map((c) => plain(c, i18n)),
    };
  });

  app.post('/api/admin/shop/items/:id/remove', async (request) => {
    const { actor, key, body } = await adminWrite(gate, request, 'moderator', removeBody);
    const { id } = parseWith(itemParams, request.params);
    refuseOtherServer(await deps.serverMembers.serversOf(actor.id), body.guild);
    await gate.withinLimits(request, actor);
    await refuseReusedKey(deps, request, { actor, key, body: { id, ...body } });
    const removed = await shop.removeItem({ guildId: body.guild, item: id });
    await audit(deps, await serverTranslator(deps), actor, key, 'shop.remove', 'removed', removed);
    return { removed: { id: removed._id, name: removed.name } };
  });
}

/** A moderator keeps the shops of the servers the bot has seen them in, no other. */
function refuseOtherServer(servers: string[], guildId: string): void {
  if (servers.includes(guildId)) return;
  throw new HttpError(
    'FORBIDDEN',
    `guild: ${guildId} is not a server the bot has seen you in (${servers.join(', ') || 'none yet: run a command there first'})`,
  );
}

/** What `/shop add-role` or `add-item` would add, its id derived from the request's key. */
function newItem(body: z.output<typeof addBody>, actor: WebActor, key: string, serverI18n: Translator) {
  const effect = body.kind === 'item' ? (body.effect ?? 'custom') : null;
  const roleId = body.kind === 'role' ? (body.role_id ?? null) : null;
  // An item named by nobody is called as on Discord: after its role, or its effect.
  const fallback = roleId ? `@${roleId}` : serverI18n.t(`shop:effects.${effect ?? 'custom'}.name`);
  return {
    id: `it${createHash('sha256').update(`web:${actor.id}:${key}`).digest('hex').slice(0, 10)}`,
    guildId: body.guild,
    actorId: actor.id,
    kind: body.kind,
    effect,
    roleId,
    fields: {
      name: body.name?.trim() || fallback,
      description: body.description ?? '',
      price: body.price ?? 0,
      stockLeft: body.stock ?? null,
      perMember: body.per_member ?? null,
      requiredRoleId: body.required_role_id ?? null,
      durationH: body.hours ?? null,
    },
  };
}

/** What an edit names; a field left out stays as it is. */
function changedFields(body: z.output<typeof editBody>): Partial<ItemFields> {
  const fields: Partial<ItemFields> = {};
  if (body.name !== undefined) fields.name = body.name;
  if (body.description !== undefined) fields.description = body.description;
  if (body.price !== undefined) fields.price = body.price;
  if (body.stock !== undefined) fields.stockLeft = body.stock;
  if (body.per_member !== undefined) fields.perMember = body.per_member;
  if (body.required_role_id !== undefined) fields.requiredRoleId = body.required_role_id;
  if (body.hours !== undefined) fields.durationH = body.hours;
  return fields;
}

/** The audit line `/shop` writes, once per Idempotency-Key. */
async function audit(
  deps: BotDeps,
  serverI18n: Translator,
  actor: WebActor,
  key: string,
  kind: 'shop.add' | 'shop.edit' | 'shop.remove',
  text: string,
  item: ShopItemDoc,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await deps.services.admin.record({
    id: `${kind}:web:${actor.id}:${key}`,
    kind,
    actorId: actor.id,
    text: serverI18n.t(`shop:audit.${text}`, {
      actor: actor.id,
      name: item.name,
      price: serverI18n.cookies(item.price),
      ...extra,
    }),
  });
}

/** Discord's markup as the page shows it: a role as `@` and its id. */
const plain = (text: string, i18n: Translator) =>
  discordToPlain(text, i18n.locale, new Date()).replace(/<@&(\d+)>/g, '@$1');

function itemJson(item: ShopItemDoc, i18n: Translator) {
  return {
    id: item._id,
    name: item.name,
    kind: item.kind,
    role_id: item.roleId,
    effect: item.effect,
    effect_label: item.effect ? i18n.t(`shop:effects.${item.effect}.name`) : null,
    price: item.price,
    stock: item.stockLeft,
    // The units a limited stock gave out (purchases in flight included); unlimited stock keeps no count.
    sold: item.stockLeft === null ? null : item.claims.length,
    per_member: item.perMember,
    required_role_id: item.requiredRoleId,
    hours: item.durationH,
    description: item.description,
    updated_at: item.updatedAt.toISOString(),
  };
}
