import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { HttpError } from '../../../src/http/contract.js';
import { parseQuery, parseWith } from '../../../src/http/params.js';
import type { Access, BotDeps } from '../../../src/interactions/types.js';
import { SNOWFLAKE_PATTERN } from '../../../src/snowflake.js';
import { IDEMPOTENCY_KEY, type WebActor, type WebGate } from './gate.js';

/** A write of the moderators' API, read and checked before anything is done. */
export interface AdminWrite<T> {
  actor: WebActor;
  /** The client's Idempotency-Key: a retry or a double click sends the same, and acts once. */
  key: string;
  body: T;
}

/**
 * What every write of the moderators' API checks first, in this order: the session and its
 * rights, that it comes from the page (CSRF), no query, its Idempotency-Key and its body.
 * The rate limits come last, once the target is known to exist (`gate.withinLimits`).
 */
export async function adminWrite<T>(
  gate: WebGate,
  request: FastifyRequest,
  access: Access,
  body: z.ZodType<T>,
): Promise<AdminWrite<T>> {
  const actor = await gate.signedIn(request, access);
  gate.fromThePage(request);
  parseQuery({}, request.query);
  const key = parseWith(IDEMPOTENCY_KEY, request.headers['idempotency-key'], 'Idempotency-Key');
  return { actor, key, body: parseWith(body, request.body) };
}

/**
 * Refuses a key its moderator first sent with another request (another route, member, amount
 * or reason): 409 IDEMPOTENCY_KEY_REUSED. Called right before the action, so a request refused
 * before it (an unknown member, a rate limit) does not tie the key.
 */
export async function refuseReusedKey(
  deps: BotDeps,
  request: FastifyRequest,
  write: AdminWrite<unknown>,
): Promise<void> {
  const asked = JSON.stringify([request.routeOptions.url, write.body]);
  if (await deps.services.web.sameRequest(write.actor.id, write.key, asked)) return;
  throw new HttpError(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used for a different request: send a new key.',
  );
}

/**
 * Refuses an id nobody uses: it would get a wallet and show in the rankings. Only a member the
 * bot has seen, or (where `workers` allows) a linked worker, is a target.
 */
export async function refuseUnknownClient(
  deps: BotDeps,
  id: string,
  field: string,
  options: { workers: boolean },
): Promise<void> {
  const known = SNOWFLAKE_PATTERN.test(id)
    ? (await deps.profiles.firstSeenAt(id)) !== null
    : options.workers && (await deps.services.workers.linkedOwner(id)) !== null;
  if (known) return;
  throw new HttpError(
    'UNKNOWN_CLIENT',
    options.workers
      ? `${field}: ${id} is neither a known member nor a linked worker`
      : `${field}: ${id} is not a member the bot knows`,
  );
}
