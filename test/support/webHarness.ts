import WebSocket from 'ws';
import { ASSEMBLY } from '../../commands/index.js';
import type { Clock } from '../../src/clock.js';
import { buildHttpApp } from '../../src/http/server.js';
import { describeAppError } from '../../src/interactions/errorReplies.js';
import type { FeedMessage } from '../../utils/web/liveFeed.js';
import { ADMIN_ID, makeBotDeps } from './botHarness.js';
import type { TestDatabase } from './database.js';
import { waitFor } from './waitFor.js';

/** A JSON reply, read loosely by tests (fields are checked by the assertions). */
// biome-ignore lint/suspicious/noExplicitAny: replies are checked field by field by the assertions
type WebJson = Record<string, any>;

/** The bot's HTTP server over a test database, listening on a free port, and a client for it. */
export async function startWeb(
  t: Pick<TestDatabase, 'db' | 'cols'>,
  env: Record<string, string> = {},
  options: { wallClock?: Clock } = {},
) {
  const bot = makeBotDeps(t, { env, ...options });
  const app = buildHttpApp(ASSEMBLY.httpRoutes(bot.deps), {
    health: { database: async () => true, gateway: () => 'none' },
    describe: (error, locale) => describeAppError(error, ASSEMBLY.errorMessages, bot.deps.i18n.for(locale)),
    now: () => bot.deps.clock.now(),
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });

  /** A request as a browser on the page would make it (its Origin, its cookie). */
  const request = async (
    method: string,
    path: string,
    options: {
      cookie?: string;
      origin?: string | null;
      body?: unknown;
      headers?: Record<string, string>;
    } = {},
  ) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.cookie) headers.cookie = options.cookie;
    if (options.origin !== null) headers.origin = options.origin ?? url;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${url}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: response.status, headers: response.headers, text, json: json as WebJson };
  };

  /** Signs in as a member through a one-time link, as `/place web` makes it; returns the cookie. */
  const signIn = async (userId: string, name = 'member', roleIds: string[] = []) => {
    const { token } = await bot.deps.services.web.createLink({ userId, name, roleIds });
    const response = await request('POST', '/place/login', {
      body: new URLSearchParams({ token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const cookie = response.headers.get('set-cookie') ?? '';
    return cookie.split(';')[0] as string;
  };

  /** A WebSocket client that keeps every message it receives. */
  const connect = (after?: number) => {
    const ws = new WebSocket(
      `${url.replace('http', 'ws')}/api/place/ws${after === undefined ? '' : `?after=${after}`}`,
    );
    const messages: FeedMessage[] = [];
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
    const opened = new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return { ws, messages, closed, opened };
  };

  /** Grants a member Place points, as a moderator would (each call its own operation). */
  let grants = 0;
  const fund = async (member: string, points: number) => {
    await bot.deps.services.place.grant({
      opId: `test.grant:${member}:${++grants}`,
      moderatorId: ADMIN_ID,
      to: member,
      amount: points * 1000,
      reason: 'test',
    });
  };

  return { ...bot, app, url, request, signIn, connect, fund, adminId: ADMIN_ID, close: () => app.close() };
}

/** Waits until `check` holds (polling), or fails after `ms`: `waitFor`, as the web tests call it. */
export async function eventually(check: () => boolean, ms = 5_000): Promise<void> {
  await waitFor(check, { timeoutMs: ms, intervalMs: 20 });
}
