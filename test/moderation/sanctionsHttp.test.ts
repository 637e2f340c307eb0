import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildHttpApp } from '../../src/http/server.js';
import { huntRoutes } from '../../utils/hunt/httpRoutes.js';
import { signedHeaders, splitUrl } from '../../utils/hunt/signing.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('moderation_http');
const PAINTER = '893100000000000001';
const OWNER = '893100000000000002';
const MOD = '893100000000000009';
const HOUR = 3_600_000;

describe('bans over HTTP', () => {
  let web: Awaited<ReturnType<typeof startWeb>> | null = null;
  beforeEach(() => clearDatabase(t.db));
  afterEach(async () => {
    await web?.close();
    web = null;
  });

  it('GIVEN a member banned from painting WHEN they paint on the web THEN 403 SANCTIONED with the end and reason, nothing is paid, and the live view still opens', async () => {
    web = await startWeb(t);
    await web.fund(PAINTER, 1_000);
    const cookie = await web.signIn(PAINTER, 'pia');
    await web.deps.services.moderation.ban({
      member: PAINTER,
      scope: 'painting',
      lengthMs: HOUR,
      reason: 'griefing',
      by: MOD,
      byAdmin: false,
    });
    const refused = await web.request('POST', '/api/place/pixel', {
      cookie,
      body: { x: 1, y: 1, color_index: 2 },
      headers: { 'idempotency-key': 'banned-0001' },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('SANCTIONED');
    expect(refused.json.error.message).toContain('You are banned from painting until');
    expect(refused.json.error.message).toContain('griefing');
    // A browser that asks for German reads the refusal as German members read it on Discord.
    const german = await web.request('POST', '/api/place/pixel', {
      cookie,
      body: { x: 1, y: 1, color_index: 2 },
      headers: { 'idempotency-key': 'banned-0002', 'accept-language': 'de-DE,de;q=0.9' },
    });
    expect(german.json.error.code).toBe('SANCTIONED');
    expect(german.json.error.message).toContain('griefing');
    expect(german.json.error.message).not.toContain('You are banned');
    expect(german.json.error.message).toMatch(/gesperrt/);
    // The end reads as a date, not as Discord's timestamp markup.
    expect(german.json.error.message).toContain('UTC');
    expect(german.json.error.message).not.toContain('<t:');
    // Reading stays open: the wallet, and the live canvas.
    expect((await web.request('GET', '/api/place/me', { cookie })).status).toBe(200);
    const live = web.connect();
    await live.opened;
    live.ws.close();
    await web.deps.ledger.flush();
    expect(await web.deps.services.place.wallet(PAINTER)).toMatchObject({
      balance: 1_000_000,
      placements: 0,
    });
    expect(await booksProblems(t.cols)).toEqual([]);

    await web.deps.services.moderation.lift(PAINTER, 'painting');
    const painted = await web.request('POST', '/api/place/pixel', {
      cookie,
      body: { x: 1, y: 1, color_index: 2 },
      headers: { 'idempotency-key': 'lifted-0001' },
    });
    expect(painted.status).toBe(200);
  });

  it('GIVEN a worker whose owner is banned from the economy THEN its tip is refused with 403 and recorded nowhere, it earns no time, and a games ban leaves it alone', async () => {
    const { deps } = makeBotDeps(t);
    const worker = await deps.services.workers.link(OWNER, 'cli');
    const app = buildHttpApp([huntRoutes(deps.services)], { describe: (error) => error.message });
    let nonce = 0;
    const tip = () => {
      const body = JSON.stringify({ guess: [1, 1, 1, 1, 1, 1, 1, 1] });
      return app.inject({
        method: 'POST',
        url: '/api/hunt/tip',
        payload: body,
        headers: {
          'content-type': 'application/json',
          ...signedHeaders(worker._id, worker.secret, {
            method: 'POST',
            ...splitUrl('/api/hunt/tip'),
            timestamp: String(Date.now()),
            nonce: `ban-nonce-${String(nonce++).padStart(8, '0')}`,
            body,
          }),
        },
      });
    };
    const ban = { member: OWNER, lengthMs: HOUR, reason: 'bots', by: MOD, byAdmin: false };
    await deps.services.moderation.ban({ ...ban, scope: 'games' });
    expect((await tip()).statusCode).toBe(200);
    await deps.services.moderation.ban({ ...ban, scope: 'economy' });
    const refused = await tip();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('SANCTIONED');
    expect((await deps.services.hunt.history(worker._id, 20)).length).toBeLessThanOrEqual(1);
    const status = await app.inject({
      method: 'GET',
      url: '/api/hunt/status',
      headers: signedHeaders(worker._id, worker.secret, {
        method: 'GET',
        ...splitUrl('/api/hunt/status'),
        timestamp: String(Date.now()),
        nonce: 'ban-status-00000001',
        body: '',
      }),
    });
    expect(status.statusCode).toBe(200);
    expect(status.json().pending).toMatchObject({ sequence: 1 });
    // The service refuses too, whoever asks (Discord's /hunt tip, the console): the member's own tip.
    const own = await deps.services.hunt.tip(OWNER, [1, 1, 1, 1, 1, 1, 1, 1], null).catch((e: unknown) => e);
    expect(own).toMatchObject({ code: 'SANCTIONED', context: { scope: 'economy', reason: 'bots' } });
    // A worker of a banned owner earns no active time either.
    expect(await deps.services.hunt.activity(worker._id)).toBe(0);
    await app.close();
  });
});
