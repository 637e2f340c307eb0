import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../src/http/contract.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';
import { type RawAnswer, rawHttp, until, upgradeRequest } from './adversarialSupport.js';

/**
 * The WebSocket handshake at /api/place/ws attacked from outside with raw requests: every
 * refusal must be a plain HTTP answer in the contract's shape with the security headers
 * (docs/web.md, "The WebSocket as a client sees it"), and the server must go on serving.
 */
const t = useTestDatabase('web_adv_upgrade');
let web: Awaited<ReturnType<typeof startWeb>>;
let port = 0;

function expectContract(what: string, answer: RawAnswer, status: number, code: string) {
  expect([what, answer.status, answer.json?.error?.code]).toEqual([what, status, code]);
  expect(typeof answer.json?.error?.message).toBe('string');
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    expect([what, name, answer.headers[name]]).toEqual([what, name, value]);
  }
}

/** The server still answers a plain request. */
async function stillServing() {
  const answer = await rawHttp(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  expect(answer.status).toBe(200);
}

describe('the WebSocket handshake under attack', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t);
    port = Number(new URL(web.url).port);
  });
  // A handshake that crashed the upgrade listener leaves a socket the server never ends.
  afterEach(() => Promise.race([web.close(), new Promise((resolve) => setTimeout(resolve, 3_000))]));

  it('GIVEN a malformed after (hex, exponent, spaces, Arabic-Indic and full-width digits, +, 17 digits, repeated, an unknown parameter) THEN 400 BAD_REQUEST in the error shape, before the upgrade', async () => {
    const targets = [
      '/api/place/ws?after=0x10',
      '/api/place/ws?after=1e3',
      '/api/place/ws?after=%201',
      '/api/place/ws?after=1%20',
      '/api/place/ws?after=%D9%A1', // ١
      '/api/place/ws?after=%EF%BC%91', // full-width 1
      '/api/place/ws?after=%2B1', // +1
      '/api/place/ws?after=+1', // a space in a query
      '/api/place/ws?after=1.0',
      '/api/place/ws?after=',
      '/api/place/ws?after',
      `/api/place/ws?after=${'9'.repeat(17)}`,
      `/api/place/ws?after=${'1'.repeat(5_000)}`,
      '/api/place/ws?after=1&after=1',
      '/api/place/ws?after=1&AFTER=1',
      '/api/place/ws?after=-1',
    ];
    for (const target of targets) {
      const answer = await rawHttp(port, upgradeRequest(target));
      expectContract(target, answer, 400, 'BAD_REQUEST');
      expect(answer.json?.error?.message).toMatch(/^(after|AFTER): /);
    }
    await stillServing();
  });

  it('GIVEN odd paths (a trailing slash, upper case, encoded, doubled slashes) THEN 404 NOT_FOUND in the error shape', async () => {
    for (const target of [
      '/api/place/ws/',
      '/API/place/ws',
      '/api/place/%77s',
      '/api/place/ws%2F',
      '//api/place/ws',
    ]) {
      expectContract(target, await rawHttp(port, upgradeRequest(target)), 404, 'NOT_FOUND');
    }
    await stillServing();
  });

  it('GIVEN a handshake whose target is not a URL the server can read (//[) THEN it is refused in the error shape, and the server keeps serving', async () => {
    // `new URL('//[', base)` throws inside the upgrade listener: nothing catches it.
    const answer = await rawHttp(port, upgradeRequest('//['));
    expect([400, 404]).toContain(answer.status);
    expect(answer.json?.error?.code).toMatch(/^(BAD_REQUEST|NOT_FOUND)$/);
    await stillServing();
  });

  it('GIVEN a broken WebSocket handshake on the right path (no key, Upgrade: h2c, POST) THEN the refusal is in the error shape with the security headers', async () => {
    const noKey = upgradeRequest('/api/place/ws').replace(
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n',
      '',
    );
    const cases: [string, string][] = [
      ['no Sec-WebSocket-Key', noKey],
      ['Upgrade: h2c', upgradeRequest('/api/place/ws').replace('Upgrade: websocket', 'Upgrade: h2c')],
      ['POST', upgradeRequest('/api/place/ws', ['Content-Length: 0'], 'POST')],
    ];
    const seen = [];
    for (const [what, text] of cases) {
      const answer = await rawHttp(port, text);
      seen.push({
        what,
        status: answer.status,
        code: answer.json?.error?.code,
        nosniff: answer.headers['x-content-type-options'],
        body: answer.body.slice(0, 60),
      });
    }
    expect(seen).toEqual(
      cases.map(([what]) => ({
        what,
        status: expect.any(Number),
        code: expect.any(String),
        nosniff: 'nosniff',
        body: expect.any(String),
      })),
    );
    await stillServing();
  });

  it('GIVEN a client that connects with an after the canvas never reached THEN it is told to reload with the real revision, and then gets live placements', async () => {
    const client = web.connect(1_000_000);
    await client.opened;
    await until(() => client.messages.some((m) => m.type === 'reload'), 10_000, 'reload');
    expect(client.messages[0]).toEqual({ type: 'hello', revision: 0 });
    expect(client.messages.find((m) => m.type === 'reload')).toEqual({ type: 'reload', revision: 0 });
    await web.deps.services.place.grant({
      opId: 'adv-upgrade-grant',
      moderatorId: web.adminId,
      to: '897300000000000001',
      amount: 1_000_000,
      reason: 'test',
    });
    await web.deps.services.place.place({
      opId: 'adv-1',
      userId: '897300000000000001',
      x: 1,
      y: 2,
      color: 3,
    });
    await until(() => client.messages.some((m) => m.type === 'changes'), 10_000, 'live changes');
    const changes = client.messages.find((m) => m.type === 'changes');
    expect(changes).toMatchObject({ type: 'changes', from: 0, revision: 1 });
    client.ws.close();
  });
});
