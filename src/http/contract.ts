import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../db/databaseHealth.js';
import { type AppError, databaseUnavailable, type ErrorCode, isAppError } from '../errors.js';
import { type Locale, requestLocale } from '../i18n/i18n.js';
import { discordToPlain } from '../i18n/webText.js';
import type { Logger } from '../logger.js';
import { metrics } from '../metrics.js';

/**
 * The one contract every HTTP route of the bot answers by (docs/web.md, "Errors over HTTP"): a
 * refusal is `{ "error": { "code", "message" } }` with the status of its code below, and every
 * response, a 404 and a crash included, carries the security headers. The contract is installed
 * on the server's root, so a feature's routes cannot step outside it.
 */
export type HttpErrorCode =
  | 'BAD_REQUEST'
  | 'BODY_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_SIGNED_IN'
  | 'WORKER_REFUSED'
  | 'FORBIDDEN'
  | 'BAD_ORIGIN'
  | 'RATE_LIMITED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'LINK_INVALID'
  | 'NOT_FOUND'
  | 'UNKNOWN_CLIENT'
  | 'REQUEST_TIMEOUT'
  | 'HEADERS_TOO_LARGE'
  | 'UPGRADE_REQUIRED'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UNEXPECTED';

/**
 * Every code an HTTP client can see, with its status. The bot's own error codes that can reach a
 * route are here too; one that is not (a new feature's) answers 409 with its code, and the
 * route-table test (`test/web/routeTable.test.ts`) fails until it is listed here and in
 * docs/web.md.
 */
export const HTTP_STATUS = {
  BAD_REQUEST: 400,
  INVALID_INPUT: 400,
  NOT_SIGNED_IN: 401,
  WORKER_REFUSED: 401,
  INSUFFICIENT_PLACE_POINTS: 402,
  FORBIDDEN: 403,
  NOT_AUTHORIZED: 403,
  BAD_ORIGIN: 403,
  SANCTIONED: 403,
  SANCTION_NEEDS_ADMIN: 403,
  PIXEL_PROTECTED: 403,
  NOT_FOUND: 404,
  UNKNOWN_CLIENT: 404,
  SHOP_ITEM_UNKNOWN: 404,
  REQUEST_TIMEOUT: 408,
  IDEMPOTENCY_KEY_REUSED: 409,
  OPERATION_IN_PROGRESS: 409,
  BALANCE_LIMIT: 409,
  PRIVACY_ERASING: 409,
  SETTING_STALE: 409,
  SHOP_FULL: 409,
  SHOP_NAME_TAKEN: 409,
  LINK_INVALID: 410,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UPGRADE_REQUIRED: 426,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  UNEXPECTED: 500,
  UPSTREAM_UNAVAILABLE: 502,
  FEATURE_DISABLED: 503,
  LEDGER_UNAVAILABLE: 503,
  DATABASE_UNAVAILABLE: 503,
} as const satisfies Partial<Record<HttpErrorCode | ErrorCode, number>>;

export type AnsweredCode = keyof typeof HTTP_STATUS;

/** A refusal a route throws: its code, a message that says what to change, and extra headers. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly options: { headers?: Record<string, string>; fields?: Record<string, string | number> } = {},
  ) {
    super(message);
  }
}

/**
 * No inline script or style (the CSP), no framing, no sniffing, no referrer to other sites (a
 * sign-in link must not leak). Not `no-referrer`: with it, browsers send `Origin: null` on form
 * posts, which the origin check refuses.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

export interface ErrorBody {
  error: { code: string; message: string } & Record<string, string | number>;
}

/**
 * An AppError is answered with its code and its message as members read it, except a reused
 * operation id: over HTTP that id is the client's Idempotency-Key, so it is the key that was reused.
 */
function answerTo(
  error: AppError,
  describe: (error: AppError, locale: Locale) => string,
  locale: Locale,
  now: () => Date,
): { code: string; message: string } {
  if (error.code === 'OPERATION_ID_REUSED') {
    return {
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: 'This Idempotency-Key was already used for a different request: send a new key.',
    };
  }
  return { code: error.code, message: discordToPlain(describe(error, locale), locale, now()) };
}

/** How long a client should wait before asking again while the database is away. */
export const DATABASE_RETRY_AFTER_S = 10;

export function statusOf(code: string): number {
  return (HTTP_STATUS as Record<string, number>)[code] ?? 409;
}

/** Fastify's own refusals (a body too large, a content type it does not read, a bad URL). */
function frameworkRefusal(error: FastifyError): { code: HttpErrorCode; message: string } {
  if (error.statusCode === 413) return { code: 'BODY_TOO_LARGE', message: 'The body is larger than 16 KB.' };
  if (error.statusCode === 415) {
    return {
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Send JSON (application/json), or the sign-in form (application/x-www-form-urlencoded).',
    };
  }
  return { code: 'BAD_REQUEST', message: error.message };
}

/**
 * Installs the contract on the server's root: the security headers on every response, the one
 * error shape for thrown refusals, the bot's errors (described as members read them, in English),
 * fastify's own refusals, unknown routes and crashes. A refusal of the bot's own is worded in the
 * language the request asks for (`Accept-Language`), as the member reads it on Discord, its
 * timestamps and bold as a browser shows them.
 */
export function installContract(
  app: FastifyInstance,
  options: { describe: (error: AppError, locale: Locale) => string; now?: () => Date; log?: Logger },
): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    return payload;
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = (request.url.split('?')[0] as string).slice(0, 200);
    return reply.code(404).send(errorBody('NOT_FOUND', `There is no ${request.method} ${path}.`));
  });
  app.setErrorHandler(async (failure: FastifyError, request, reply) => {
    // The database went away under the request: a 503 to retry, not a crash.
    const error = isDatabaseUnavailable(failure) ? (databaseUnavailable(true, failure) as never) : failure;
    if (error instanceof HttpError) {
      return reply
        .code(statusOf(error.code))
        .headers(error.options.headers ?? {})
        .send(errorBody(error.code, error.message, error.options.fields));
    }
    if (isAppError(error)) {
      metrics.errors.inc({ code: error.code });
      const locale = requestLocale(request.headers['accept-language']);
      const { code, message } = answerTo(error, options.describe, locale, options.now ?? (() => new Date()));
      if (code === 'DATABASE_UNAVAILABLE') reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
      return reply.code(statusOf(code)).send(errorBody(code, message));
    }
    if (error.statusCode && error.statusCode < 500) {
      const refusal = frameworkRefusal(error);
      return reply.code(statusOf(refusal.code)).send(errorBody(refusal.code, refusal.message));
    }
    metrics.errors.inc({ code: 'UNEXPECTED' });
    // The path only: a query may carry a sign-in token or an OAuth code (docs/operating.md,
    // "Privacy").
    const path = request.url.split('?')[0];
    options.log?.error({ event: 'http.failed', url: path, err: error }, 'HTTP request failed');
    return reply.code(500).send(errorBody('UNEXPECTED', 'Something went wrong on our side; try again.'));
  });
}

/**
 * An answer written straight to a socket, in the contract's shape with its headers, then the
 * socket ends: for what never reaches a route (a WebSocket handshake refused before the
 * upgrade, HTTP the parser could not read).
 */
export function answerOnSocket(socket: Duplex, code: HttpErrorCode, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(code, message));
  const status = statusOf(code);
  const headers = {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Refused'}`];
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * HTTP that Node's parser refused before fastify saw a request (fastify's `clientErrorHandler`):
 * headers over the limit, a request that took too long, or bytes that are not HTTP.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    answerOnSocket(socket, 'HEADERS_TOO_LARGE', 'The request headers are larger than 16 KB.');
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    answerOnSocket(socket, 'REQUEST_TIMEOUT', 'The request took too long to arrive.');
  } else {
    answerOnSocket(socket, 'BAD_REQUEST', 'This is not an HTTP request the server can read.');
  }
}

export function errorBody(
  code: string,
  message: string,
  fields: Record<string, string | number> = {},
): ErrorBody {
  return { error: { code, message, ...fields } };
}
