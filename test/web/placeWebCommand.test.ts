import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('place_web_command');

/**
 * `/place web` as a member runs it (the console, the same runtime as Discord), against a web
 * server of another process's deps over the same database: the link and the sessions live in
 * MongoDB, not in the process that made them.
 */
describe('/place web', () => {
  let web: Awaited<ReturnType<typeof startWeb>>;
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t);
    c = makeConsole(t);
  });
  afterEach(() => web.close());

  const signInWith = async (link: string) => {
    const token = new URL(link).searchParams.get('token') as string;
    const response = await web.request('POST', '/place/login', {
      body: new URLSearchParams({ token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    return {
      status: response.status,
      cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] as string,
    };
  };

  it('GIVEN a member WHEN they run /place web THEN an ephemeral link signs in once as them, and logout-all ends every session', async () => {
    c.deps.config.http.publicUrl = web.url;
    const you = c.identities.get('you').id;

    expect(await c.session.run('/place web')).toBe('ok');
    const first = c.take();
    expect(first).toContain(
      '[ephemeral] 🔗 Your sign-in link for the live canvas is the button below. It works once, for the next 10 minutes.',
    );
    // The link is a Link button: the member's browser opens it, the bot hears nothing of the press.
    const link = (
      first.match(
        /links: \[Open the canvas\]\((http:\/\/\S+\/place\/login\?token=[\w-]+)\)/,
      ) as RegExpMatchArray
    )[1] as string;
    const phone = await signInWith(link);
    expect(phone.status).toBe(303);
    expect((await signInWith(link)).status).toBe(410);

    await c.session.run('/place web action:link');
    const laptop = await signInWith(
      (c.take().match(/(http:\/\/\S+token=[\w-]+)/) as RegExpMatchArray)[1] as string,
    );
    for (const session of [phone, laptop]) {
      const me = await web.request('GET', '/api/place/me', { cookie: session.cookie });
      expect(me.status).toBe(200);
      expect(me.json.client_id).toBe(you);
    }

    expect(await c.session.run('/place web action:logout-all')).toBe('ok');
    expect(c.take()).toContain('[ephemeral] 🚪 Signed out of 2 browsers.');
    for (const session of [phone, laptop]) {
      const me = await web.request('GET', '/api/place/me', { cookie: session.cookie });
      expect(me.status).toBe(401);
      expect(me.json.error.code).toBe('NOT_SIGNED_IN');
    }
    // Someone else's sessions are not theirs to end.
    const ann = await web.signIn('896000000000000011', 'ann');
    await c.session.run('/place web action:logout-all');
    expect(c.take()).toContain('You were not signed in to the canvas in any browser.');
    expect((await web.request('GET', '/api/place/me', { cookie: ann })).status).toBe(200);
  });

  it('GIVEN a bot that serves no web page THEN /place web says so and makes no link', async () => {
    c.deps.config.http.port = 0;
    c.deps.config.http.publicUrl = null;
    expect(await c.session.run('/place web')).toBe('ok');
    expect(c.take()).toContain('[ephemeral] The web page is switched off on this bot (HTTP_PORT is 0).');
    expect(await t.db.collection('web_links').countDocuments()).toBe(0);
  });
});
