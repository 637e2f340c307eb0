import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('web_oauth');
const PUBLIC_URL = 'https://place.example.org';
const MEMBER = { id: '896000000000000077', username: 'cleo', global_name: 'Cleo', locale: 'de' };

/**
 * The optional Discord OAuth2 sign-in, against a stand-in for Discord's token and user
 * endpoints on loopback (`DISCORD_API_URL`): the code is exchanged once, with the configured
 * client secret and redirect URI, and the member's session opens.
 */
describe('signing in with Discord (OAuth2)', () => {
  const discord = Fastify();
  const exchanged: Record<string, string>[] = [];
  let web: Awaited<ReturnType<typeof startWeb>>;

  beforeAll(async () => {
    await clearDatabase(t.db);
    discord.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    discord.post('/oauth2/token', async (request, reply) => {
      const form = request.body as Record<string, string>;
      exchanged.push(form);
      return form.code === 'good-code'
        ? { access_token: 'access-1', token_type: 'Bearer' }
        : reply.code(400).send({ error: 'invalid_grant' });
    });
    discord.get('/users/@me', async (request, reply) =>
      request.headers.authorization === 'Bearer access-1'
        ? MEMBER
        : reply.code(401).send({ message: '401: Unauthorized' }),
    );
    const api = await discord.listen({ host: '127.0.0.1', port: 0 });
    web = await startWeb(t, {
      PUBLIC_URL,
      DISCORD_CLIENT_SECRET: 'client-secret',
      DISCORD_APPLICATION_ID: '111111111111111111',
      DISCORD_API_URL: api,
    });
  });
  afterAll(async () => {
    await web?.close();
    await discord.close();
  });

  it('GIVEN Discord confirms the member THEN a session opens for them, in their Discord language; a wrong state or a refused code opens none, and a cancel is told on a page', async () => {
    const start = await web.request('GET', '/auth/discord');
    expect(start.status).toBe(302);
    const consent = new URL(start.headers.get('location') as string);
    expect(consent.origin + consent.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(consent.searchParams.get('scope')).toBe('identify');
    expect(consent.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/auth/discord/callback`);
    const state = consent.searchParams.get('state') as string;
    const stateCookie = (start.headers.get('set-cookie') as string).split(';')[0] as string;
    expect(stateCookie).toBe(`oauth_state=${state}`);

    const forged = await web.request('GET', `/auth/discord/callback?code=good-code&state=other`, {
      cookie: stateCookie,
    });
    expect(forged.status).toBe(400);
    expect(forged.json.error.message).toMatch(/^state: does not match/);
    // No state at all, and no state cookie: the same refusal, Discord never asked.
    const stateless = await web.request('GET', '/auth/discord/callback?code=good-code');
    expect([stateless.status, stateless.json.error.code]).toEqual([400, 'BAD_REQUEST']);
    // The member cancelled on Discord's page: told so, not a crash.
    const cancelled = await web.request('GET', '/auth/discord/callback?error=access_denied', {
      cookie: stateCookie,
    });
    expect([cancelled.status, cancelled.json.error.code]).toEqual([410, 'LINK_INVALID']);
    // ... and a browser is told on a page what to do, in its language.
    const page = await web.request('GET', '/auth/discord/callback?error=access_denied', {
      cookie: stateCookie,
      headers: { accept: 'text/html', 'accept-language': 'de-DE' },
    });
    expect(page.status).toBe(410);
    expect(page.text).toContain('Discord hat die Anmeldung nicht bestätigt.');
    expect(exchanged).toHaveLength(0);

    const refused = await web.request('GET', `/auth/discord/callback?code=bad-code&state=${state}`, {
      cookie: stateCookie,
    });
    expect(refused.json.error.code).toBe('LINK_INVALID');
    expect(await t.db.collection('web_sessions').countDocuments()).toBe(0);

    const back = await web.request('GET', `/auth/discord/callback?code=good-code&state=${state}`, {
      cookie: stateCookie,
    });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('/place');
    expect(exchanged.at(-1)).toMatchObject({
      client_id: '111111111111111111',
      client_secret: 'client-secret',
      grant_type: 'authorization_code',
      code: 'good-code',
      redirect_uri: `${PUBLIC_URL}/auth/discord/callback`,
    });
    const session = (back.headers.get('set-cookie') as string).split(';')[0] as string;
    const me = await web.request('GET', '/api/place/session', { cookie: session });
    expect(me.json).toEqual({ signed_in: true, client_id: MEMBER.id, name: 'Cleo' });
    // The member's Discord language (German) is the page's, whatever the browser says.
    const place = await web.request('GET', '/place', {
      cookie: session,
      headers: { 'accept-language': 'en' },
    });
    expect(place.text).toContain('<html lang="de">');
  });
});
