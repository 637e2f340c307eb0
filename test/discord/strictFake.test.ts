import {
  ChannelType,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  type Interaction,
  PermissionFlagsBits,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ID,
  BOT_ROLE_ID,
  BOT_ROLE_POSITION,
  CHANNEL_ID,
  FakeDiscord,
  type FakeUser,
  GUILD_ID,
  type VisibleMessage,
} from '../support/fakeDiscord.js';
import { FakeGuild } from '../support/fakeGuild.js';
import { waitFor } from '../support/waitFor.js';

/**
 * The fake Discord refuses what Discord refuses, with Discord's status, code and field path,
 * so a test that passes against it means a payload a real server takes. Raw requests test each
 * rule; a discord.js client shows the library reads the answers as it reads Discord's.
 */

const member: FakeUser = { id: '810000000000000001', username: 'mia' };
const other: FakeUser = { id: '810000000000000002', username: 'otto' };
const MiB = 1024 * 1024;

interface Answer {
  status: number;
  body: { code?: number; message?: string; errors?: Record<string, unknown> } & Record<string, unknown>;
}

/** A request as the bot's REST client sends it: JSON, or multipart with `files` beside payload_json. */
async function send(
  fake: FakeDiscord,
  method: string,
  path: string,
  body?: unknown,
  files: { name: string; size: number }[] = [],
): Promise<Answer> {
  const init: RequestInit = { method, headers: { authorization: 'Bot fake-token' } };
  if (files.length > 0) {
    const form = new FormData();
    form.append('payload_json', JSON.stringify(body ?? {}));
    files.forEach((f, i) => {
      form.append(`files[${i}]`, new Blob([new Uint8Array(f.size)]), f.name);
    });
    init.body = form;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  const response = await fetch(`${fake.apiUrl}/v10${path}`, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

function callback(
  fake: FakeDiscord,
  token: string,
  body: unknown,
  files: { name: string; size: number }[] = [],
) {
  return send(fake, 'POST', `/interactions/${fake.interactionId(token)}/${token}/callback`, body, files);
}

function reply(data: Record<string, unknown>) {
  return { type: 4, data };
}

/** The `_errors` Discord put at `path` of its `errors` object. */
function errorsAt(answer: Answer, path: (string | number)[]): unknown {
  let node: unknown = answer.body.errors;
  for (const key of path) node = (node as Record<string, unknown> | undefined)?.[String(key)];
  return (node as { _errors?: unknown } | undefined)?._errors;
}

function button(customId: string, label = 'Press') {
  return { type: 2, style: 1, custom_id: customId, label };
}

function row(...components: unknown[]) {
  return { type: 1, components };
}

describe('the fake Discord refuses what Discord refuses', () => {
  const fake = new FakeDiscord({ refusals: 'expected' });
  let posted: VisibleMessage;

  beforeAll(async () => {
    await fake.start();
  });

  afterAll(() => fake.stop());

  it('GIVEN a valid reply with an embed, a button row and a select row THEN Discord takes it and the member sees it', async () => {
    const token = fake.command(member, 'help', []);
    const answer = await callback(
      fake,
      token,
      reply({
        content: 'Hello',
        embeds: [{ title: 'Help', fields: [{ name: 'a', value: 'v'.repeat(1_024) }] }],
        components: [
          row(button('a'), button('b')),
          row({ type: 3, custom_id: 'menu', options: [{ label: 'One', value: '1' }] }),
        ],
        allowed_mentions: { parse: [], users: [other.id] },
      }),
    );
    expect(answer.status).toBe(204);
    expect(fake.messages(token).map((m) => m.content)).toEqual(['Hello']);
    expect(fake.refusals).toEqual([]);
  });

  it('GIVEN an embed field value of 1,025 characters THEN 400 50035 names data.embeds[0].fields[0].value and the member sees nothing', async () => {
    const token = fake.command(member, 'help', []);
    const answer = await callback(
      fake,
      token,
      reply({ embeds: [{ title: 'Help', fields: [{ name: 'a', value: 'v'.repeat(1_025) }] }] }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect(errorsAt(answer, ['data', 'embeds', 0, 'fields', 0, 'value'])).toEqual([
      { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 1024 or fewer in length.' },
    ]);
    expect(fake.messages(token)).toEqual([]);
    expect(fake.refusals.at(-1)).toMatchObject({ method: 'POST', status: 400, code: 50035, about: '/help' });
  });

  it('GIVEN two embeds of 6,001 characters in all THEN MAX_EMBED_SIZE_EXCEEDED at data.embeds', async () => {
    const answer = await callback(
      fake,
      fake.command(member, 'help', []),
      reply({ embeds: [{ description: 'd'.repeat(4_000) }, { description: 'd'.repeat(2_000), title: 't' }] }),
    );
    expect(answer.status).toBe(400);
    expect(errorsAt(answer, ['data', 'embeds'])).toEqual([
      { code: 'MAX_EMBED_SIZE_EXCEEDED', message: 'Embed size exceeds maximum size of 6000' },
    ]);
  });

  it('GIVEN six action rows THEN data.components must be 5 or fewer in length', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => row(button(`b${i}`)));
    const answer = await callback(
      fake,
      fake.command(member, 'help', []),
      reply({ content: 'x', components: rows }),
    );
    expect(answer.status).toBe(400);
    expect(errorsAt(answer, ['data', 'components'])).toEqual([
      { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 5 or fewer in length.' },
    ]);
  });

  it('GIVEN six buttons in a row THEN the row must hold between 1 and 5 components', async () => {
    const six = row(...Array.from({ length: 6 }, (_, i) => button(`b${i}`)));
    const answer = await callback(
      fake,
      fake.command(member, 'help', []),
      reply({ content: 'x', components: [six] }),
    );
    expect(answer.status).toBe(400);
    expect(errorsAt(answer, ['data', 'components', 0, 'components'])).toEqual([
      { code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 5 in length.' },
    ]);
  });

  it('GIVEN a select menu beside a button THEN the select exceeds the row width', async () => {
    const select = { type: 3, custom_id: 'menu', options: [{ label: 'One', value: '1' }] };
    const answer = await callback(
      fake,
      fake.command(member, 'help', []),
      reply({ content: 'x', components: [row(button('a'), select)] }),
    );
    expect(answer.status).toBe(400);
    expect(errorsAt(answer, ['data', 'components', 0, 'components', 1])).toEqual([
      {
        code: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
        message: 'The specified component exceeds the maximum width',
      },
    ]);
  });

  it('GIVEN two buttons with one custom id in different rows THEN the second is a duplicate', async () => {
    const answer = await callback(
      fake,
      fake.command(member, 'help', []),
      reply({ content: 'x', components: [row(button('same')), row(button('other'), button('same'))] }),
    );
    expect(answer.status).toBe(400);
    expect(errorsAt(answer, ['data', 'components', 1, 'components', 1, 'custom_id'])).toEqual([
      { code: 'COMPONENT_CUSTOM_ID_DUPLICATED', message: 'Component custom id was already specified' },
    ]);
  });

  it('GIVEN buttons that break the button rules THEN each names its field', async () => {
    const answer = await callback(
      fake,
      fake.command(member, 'help', []),
      reply({
        content: 'x',
        components: [
          row(
            { type: 2, style: 5, label: 'Site', custom_id: 'link', url: 'https://example.com' },
            { type: 2, style: 1, label: 'No id' },
            { type: 2, style: 1, custom_id: 'bare' },
          ),
        ],
      }),
    );
    expect(answer.status).toBe(400);
    const at = ['data', 'components', 0, 'components'];
    expect(errorsAt(answer, [...at, 0, 'custom_id'])).toMatchObject([
      { code: 'BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE' },
    ]);
    expect(errorsAt(answer, [...at, 1, 'custom_id'])).toMatchObject([
      { code: 'BUTTON_COMPONENT_CUSTOM_ID_REQUIRED' },
    ]);
    expect(errorsAt(answer, [...at, 2, 'label'])).toMatchObject([{ code: 'BASE_TYPE_REQUIRED' }]);
  });

  it('GIVEN a select whose max_values exceeds its options THEN the options must be that many', async () => {
    const select = { type: 3, custom_id: 'm', max_values: 3, options: [{ label: 'One', value: '1' }] };
    const answer = await callback(
      fake,
      fake.command(member, 'help', []),
      reply({ content: 'x', components: [row(select)] }),
    );
    expect(errorsAt(answer, ['data', 'components', 0, 'components', 0, 'options'])).toEqual([
      { code: 'BASE_TYPE_MIN_LENGTH', message: 'Must be 3 or more in length.' },
    ]);
  });

  it('GIVEN 26 autocomplete choices THEN data.choices must be 25 or fewer', async () => {
    const token = fake.autocomplete(member, 'settings', ['set'], { key: 'c' }, 'key');
    const choices = Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `c${i}` }));
    const answer = await callback(fake, token, { type: 8, data: { choices } });
    expect(answer.status).toBe(400);
    expect(errorsAt(answer, ['data', 'choices'])).toEqual([
      { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' },
    ]);
  });

  it('GIVEN an autocomplete choice value of 101 characters THEN it must be 100 or fewer', async () => {
    const token = fake.autocomplete(member, 'settings', ['set'], { key: 'c' }, 'key');
    const answer = await callback(fake, token, {
      type: 8,
      data: { choices: [{ name: 'c', value: 'v'.repeat(101) }] },
    });
    expect(errorsAt(answer, ['data', 'choices', 0, 'value'])).toEqual([
      { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 100 or fewer in length.' },
    ]);
  });

  it('GIVEN a modal titled with 46 characters THEN the title must be between 1 and 45 in length', async () => {
    const modal = {
      custom_id: 'form',
      title: 't'.repeat(46),
      components: [row({ type: 4, custom_id: 'note', style: 1, label: 'Note' })],
    };
    const answer = await callback(fake, fake.command(member, 'help', []), { type: 9, data: modal });
    expect(answer.status).toBe(400);
    expect(errorsAt(answer, ['data', 'title'])).toEqual([
      { code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 45 in length.' },
    ]);
  });

  it('GIVEN a modal of six rows THEN it must hold between 1 and 5 components', async () => {
    const rows = Array.from({ length: 6 }, (_, i) =>
      row({ type: 4, custom_id: `f${i}`, style: 1, label: 'F' }),
    );
    const answer = await callback(fake, fake.command(member, 'help', []), {
      type: 9,
      data: { custom_id: 'form', title: 'Form', components: rows },
    });
    expect(errorsAt(answer, ['data', 'components'])).toMatchObject([{ code: 'BASE_TYPE_BAD_LENGTH' }]);
  });

  it('GIVEN a channel post of 2,001 characters THEN it is refused although the spec allows 4,000', async () => {
    const answer = await send(fake, 'POST', `/channels/${CHANNEL_ID}/messages`, {
      content: 'x'.repeat(2_001),
    });
    expect(answer.status).toBe(400);
    expect(errorsAt(answer, ['content'])).toEqual([
      { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' },
    ]);
  });

  it('GIVEN allowed mentions that parse users and list users THEN they are mutually exclusive', async () => {
    const answer = await send(fake, 'POST', `/channels/${CHANNEL_ID}/messages`, {
      content: `<@${other.id}>`,
      allowed_mentions: { parse: ['users'], users: [other.id] },
    });
    expect(errorsAt(answer, ['allowed_mentions'])).toEqual([
      {
        code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
        message: 'parse:["users"] and users: [ids...] are mutually exclusive.',
      },
    ]);
  });

  it('GIVEN a reply with nothing to show THEN 400 50006 Cannot send an empty message', async () => {
    const answer = await callback(fake, fake.command(member, 'help', []), reply({ content: '' }));
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 50006, message: 'Cannot send an empty message' },
    });
  });

  it('GIVEN eleven files THEN attachments must be 10 or fewer', async () => {
    const files = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.png`, size: 10 }));
    const answer = await send(fake, 'POST', `/channels/${CHANNEL_ID}/messages`, { content: 'files' }, files);
    expect(answer.status).toBe(400);
    expect(errorsAt(answer, ['attachments'])).toEqual([
      { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' },
    ]);
    expect(fake.channelPosts.get(CHANNEL_ID) ?? []).toEqual([]);
  });

  it('GIVEN a file of 11 MiB THEN 413 40005 Request entity too large, and one of 10 MiB passes', async () => {
    const tooBig = await send(fake, 'POST', `/channels/${CHANNEL_ID}/messages`, { content: 'x' }, [
      { name: 'big.png', size: 11 * MiB },
    ]);
    expect(tooBig).toEqual({ status: 413, body: { code: 40005, message: 'Request entity too large' } });
    const fits = await send(fake, 'POST', `/channels/${CHANNEL_ID}/messages`, { content: 'x' }, [
      { name: 'fits.png', size: 10 * MiB },
    ]);
    expect(fits.status).toBe(200);
    posted = fake.channelPosts.get(CHANNEL_ID)?.at(-1) as VisibleMessage;
    expect(posted.files[0]?.data.length).toBe(10 * MiB);
  });

  it('GIVEN a channel message the bot posted WHEN it edits it THEN the edit is recorded, and an unknown message is 10008', async () => {
    const edited = await send(fake, 'PATCH', `/channels/${CHANNEL_ID}/messages/${posted.id}`, {
      content: 'edited',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: posted.id, content: 'edited' });
    expect(fake.channelEdits.get(CHANNEL_ID)?.at(-1)).toMatchObject({
      via: 'edit',
      id: posted.id,
      content: 'edited',
    });
    const unknown = await send(fake, 'PATCH', `/channels/${CHANNEL_ID}/messages/123`, { content: 'edited' });
    expect(unknown).toEqual({ status: 404, body: { code: 10008, message: 'Unknown Message' } });
  });

  it('GIVEN a second callback THEN 400 40060 Interaction has already been acknowledged', async () => {
    const token = fake.command(member, 'help', []);
    expect((await callback(fake, token, reply({ content: 'first' }))).status).toBe(204);
    const second = await callback(fake, token, reply({ content: 'second' }));
    expect(second).toEqual({
      status: 400,
      body: { code: 40060, message: 'Interaction has already been acknowledged.' },
    });
    expect(fake.messages(token).map((m) => m.content)).toEqual(['first']);
  });

  it('GIVEN a refused callback THEN the interaction stays unanswered and a valid callback is taken', async () => {
    const token = fake.command(member, 'help', []);
    expect((await callback(fake, token, reply({ content: 'x'.repeat(2_001) }))).status).toBe(400);
    expect((await callback(fake, token, reply({ content: 'shorter' }))).status).toBe(204);
    expect(fake.messages(token).map((m) => m.content)).toEqual(['shorter']);
  });

  it('GIVEN a follow-up, an edit or a delete before any callback THEN 404 10015 Unknown Webhook', async () => {
    const token = fake.command(member, 'help', []);
    const unknownWebhook = { status: 404, body: { code: 10015, message: 'Unknown Webhook' } };
    const webhook = `/webhooks/${APP_ID}/${token}`;
    expect(await send(fake, 'POST', webhook, { content: 'early' })).toEqual(unknownWebhook);
    expect(await send(fake, 'PATCH', `${webhook}/messages/@original`, { content: 'early' })).toEqual(
      unknownWebhook,
    );
    expect(await send(fake, 'DELETE', `${webhook}/messages/@original`)).toEqual(unknownWebhook);
    expect((await callback(fake, token, { type: 5 })).status).toBe(204);
    expect((await send(fake, 'PATCH', `${webhook}/messages/@original`, { content: 'late' })).status).toBe(
      200,
    );
    expect(fake.messages(token).map((m) => m.via)).toEqual(['deferred', 'edit']);
  });

  it('GIVEN a slash command THEN an update callback (6 or 7) is refused; a component may update its message', async () => {
    const command = fake.command(member, 'help', []);
    const refused = await callback(fake, command, { type: 7, data: { content: 'no' } });
    expect(refused.status).toBe(400);
    expect(errorsAt(refused, ['type'])).toEqual([
      { code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (4, 5, 9).' },
    ]);
    expect((await callback(fake, command, reply({ content: 'menu' }))).status).toBe(204);
    const [menu] = fake.messages(command);
    const click = fake.click(member, menu as VisibleMessage, 'a');
    expect((await callback(fake, click, { type: 7, data: { content: 'updated' } })).status).toBe(204);
    expect(fake.messages(click)[0]).toMatchObject({ via: 'update', id: menu?.id, content: 'updated' });
  });

  it('GIVEN a route Discord has that the fake does not serve THEN 404, counted as a refusal', async () => {
    const before = fake.refusals.length;
    const answer = await send(fake, 'POST', `/channels/${CHANNEL_ID}/typing`);
    expect(answer.status).toBe(404);
    expect(fake.refusals.slice(before)).toMatchObject([{ method: 'POST', status: 404, code: 0 }]);
  });

  it('GIVEN a member and a user nobody knows THEN the lookups answer like Discord', async () => {
    fake.addMember(other);
    expect(await send(fake, 'GET', `/guilds/${GUILD_ID}/members/${other.id}`)).toMatchObject({
      status: 200,
      body: { user: { id: other.id } },
    });
    expect(await send(fake, 'GET', `/guilds/${GUILD_ID}/members/810000000000000099`)).toEqual({
      status: 404,
      body: { code: 10007, message: 'Unknown Member' },
    });
    expect(await send(fake, 'GET', '/users/810000000000000099')).toEqual({
      status: 404,
      body: { code: 10013, message: 'Unknown User' },
    });
  });

  it('GIVEN a member THEN the bot opens one direct channel with them and posts in it; closed, 403 50007 for each message; no recipient, 50035', async () => {
    const dmMember: FakeUser = { id: '810000000000000003', username: 'dora' };
    fake.addMember(dmMember);
    const opened = await send(fake, 'POST', '/users/@me/channels', { recipient_id: dmMember.id });
    expect(opened).toMatchObject({ status: 200, body: { type: 1, recipients: [{ id: dmMember.id }] } });
    const again = await send(fake, 'POST', '/users/@me/channels', { recipient_id: dmMember.id });
    expect(again.body.id).toBe(opened.body.id);
    const dm = `/channels/${String(opened.body.id)}/messages`;
    expect((await send(fake, 'POST', dm, { content: 'hello' })).status).toBe(200);
    expect(fake.directMessages.get(dmMember.id)?.map((m) => m.content)).toEqual(['hello']);
    expect((await send(fake, 'POST', dm, { content: 'x'.repeat(2_001) })).body.code).toBe(50035);

    fake.closeDms(dmMember.id);
    expect(await send(fake, 'POST', dm, { content: 'again' })).toEqual({
      status: 403,
      body: { code: 50007, message: 'Cannot send messages to this user' },
    });
    expect(fake.refusals.at(-1)).toMatchObject({ code: 50007, arranged: true });
    fake.openDms(dmMember.id);
    expect((await send(fake, 'POST', dm, { content: 'open again' })).status).toBe(200);

    const none = await send(fake, 'POST', '/users/@me/channels', {});
    expect(none.body.code).toBe(50035);
    expect(errorsAt(none, ['recipient_id'])).toEqual([
      { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
    ]);
    expect(
      (await send(fake, 'POST', '/users/@me/channels', { recipient_id: '810000000000000099' })).body,
    ).toEqual({ code: 50033, message: 'Invalid Recipient(s)' });
  });

  it('GIVEN the bot denied a permission in a channel THEN Discord refuses what needs it, with the arranged refusal recorded', async () => {
    const channel = '900000000000000050';
    fake.addChannel(channel, 'closed');
    const post = (files: { name: string; size: number }[] = []) =>
      send(fake, 'POST', `/channels/${channel}/messages`, { content: 'hi' }, files);
    const allowed = await post();
    expect(allowed.status).toBe(200);
    const messageId = String(allowed.body.id);
    fake.denyBot(channel, ['EmbedLinks']);
    const embed = { title: 'Heist' };
    expect(
      (await send(fake, 'POST', `/channels/${channel}/messages`, { content: 'hi', embeds: [embed] })).status,
    ).toBe(200);
    expect(fake.channelPosts.get(channel)?.at(-1)).toMatchObject({ content: 'hi', embeds: [] });
    expect((await send(fake, 'POST', `/channels/${channel}/messages`, { embeds: [embed] })).status).toBe(403);
    fake.denyBot(channel, ['AttachFiles']);
    expect(await post([{ name: 'a.png', size: 1 }])).toEqual({
      status: 403,
      body: { code: 50013, message: 'Missing Permissions' },
    });
    fake.denyBot(channel, ['SendMessages']);
    expect((await post()).body).toEqual({ code: 50013, message: 'Missing Permissions' });
    fake.denyBot(channel, ['ViewChannel']);
    expect(await post()).toEqual({ status: 403, body: { code: 50001, message: 'Missing Access' } });
    expect(
      (await send(fake, 'PATCH', `/channels/${channel}/messages/${messageId}`, { content: 'x' })).status,
    ).toBe(403);
    expect(fake.refusals.at(-1)).toMatchObject({ code: 50001, arranged: true, about: `#${channel}` });
    fake.restoreBot(channel);
    expect((await post()).status).toBe(200);
  });

  it('GIVEN refuseNext THEN the next callback is refused with 400 50035 and the one after is taken', async () => {
    fake.refuseNext();
    const token = fake.command(member, 'help', []);
    const refused = await callback(fake, token, reply({ content: 'fine' }));
    expect(refused.body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect(fake.refusals.at(-1)).toMatchObject({ arranged: true });
    expect((await callback(fake, token, reply({ content: 'fine' }))).status).toBe(204);
  });
});

describe('the interaction deadlines', () => {
  const fake = new FakeDiscord({ callbackDeadlineMs: 100, tokenLifetimeMs: 300, refusals: 'expected' });

  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  const pastDeadline = (token: string, ms: number) =>
    waitFor(() => performance.now() - (fake.dispatchedAt.get(token) ?? 0) > ms, {
      intervalMs: 10,
      what: `${ms} ms`,
    });

  it('GIVEN a callback after the deadline THEN 404 10062 Unknown interaction', async () => {
    const token = fake.command(member, 'help', []);
    await pastDeadline(token, 100);
    const late = await callback(fake, token, reply({ content: 'late' }));
    expect(late).toEqual({ status: 404, body: { code: 10062, message: 'Unknown interaction' } });
    expect(fake.messages(token)).toEqual([]);
  });

  it('GIVEN a token older than its lifetime THEN its webhook answers 401 50027 Invalid Webhook Token', async () => {
    const token = fake.command(member, 'help', []);
    expect((await callback(fake, token, { type: 5 })).status).toBe(204);
    await pastDeadline(token, 300);
    const edit = await send(fake, 'PATCH', `/webhooks/${APP_ID}/${token}/messages/@original`, {
      content: 'x',
    });
    expect(edit).toEqual({ status: 401, body: { code: 50027, message: 'Invalid Webhook Token' } });
  });
});

describe('refusals a test did not expect', () => {
  it('GIVEN a refusal nobody arranged or expected THEN checkRefusals fails naming the request; expectRefusals lets it pass', async () => {
    const fake = new FakeDiscord();
    await fake.start();
    try {
      const token = fake.command(member, 'help', []);
      await callback(fake, token, reply({ content: 'x'.repeat(2_001) }));
      expect(() => fake.checkRefusals()).toThrow(
        /POST \/interactions\/\d+\/token-\d+\/callback \(\/help\) → 400 50035 Invalid Form Body: data\.content\[BASE_TYPE_MAX_LENGTH\]: Must be 2000 or fewer in length\./,
      );
      await callback(fake, token, reply({ content: '' }));
      fake.expectRefusals();
      expect(() => fake.checkRefusals()).not.toThrow();
      fake.refuseNext({ path: token });
      await callback(fake, token, reply({ content: 'ok' }));
      expect(() => fake.checkRefusals()).not.toThrow();
    } finally {
      await fake.stop();
    }
  });
});

describe('the fake Discord through discord.js', () => {
  const fake = new FakeDiscord({ refusals: 'expected' });
  const received = new Map<string, Interaction>();
  let client: Client;

  beforeAll(async () => {
    await fake.start();
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiUrl } });
    client.on(Events.InteractionCreate, (interaction) => {
      received.set(interaction.token, interaction);
    });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login('fake-token');
    await ready;
  });

  afterAll(async () => {
    await client?.destroy();
    await fake.stop();
  });

  const interactionOf = (token: string) =>
    waitFor(() => received.get(token), { what: `interaction ${token}` });

  it('GIVEN a reply Discord refuses THEN discord.js throws DiscordAPIError 50035 naming the field', async () => {
    const interaction = await interactionOf(fake.command(member, 'help', []));
    if (!interaction.isChatInputCommand()) throw new Error('not a slash command');
    const refused = await interaction
      .reply({ embeds: [{ title: 'Help', fields: [{ name: 'a', value: 'v'.repeat(1_025) }] }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DiscordAPIError);
    expect((refused as DiscordAPIError).code).toBe(50035);
    expect((refused as DiscordAPIError).status).toBe(400);
    expect((refused as DiscordAPIError).message).toContain(
      'data.embeds[0].fields[0].value[BASE_TYPE_MAX_LENGTH]: Must be 1024 or fewer in length.',
    );
  });

  it('GIVEN each new kind of interaction THEN discord.js builds its class', async () => {
    const command = fake.command(member, 'help', []);
    const commandInteraction = await interactionOf(command);
    if (!commandInteraction.isChatInputCommand()) throw new Error('not a slash command');
    await commandInteraction.reply({ content: 'menus' });
    const [message] = fake.messages(command);
    const on = message as VisibleMessage;
    const role = { id: '900000000000000060', name: 'Bakers' };
    const kinds = {
      modal: fake.submitModal(member, null, 'form', { note: 'hello' }),
      modalFromMessage: fake.submitModal(member, on, 'form', { note: 'again' }),
      userCommand: fake.userCommand(member, 'Give Cookies', other),
      messageCommand: fake.messageCommand(member, 'Report', on),
      users: fake.chooseUsers(member, on, 'pick-users', [other]),
      roles: fake.chooseRoles(member, on, 'pick-roles', [role]),
      mentionables: fake.chooseMentionables(member, on, 'pick-any', { users: [other], roles: [role] }),
      channels: fake.chooseChannels(member, on, 'pick-channels', [CHANNEL_ID]),
    };
    const got = Object.fromEntries(
      await Promise.all(
        Object.entries(kinds).map(async ([kind, token]) => [kind, await interactionOf(token)] as const),
      ),
    );
    const modal = got.modal;
    expect(modal?.isModalSubmit() && modal.fields.getTextInputValue('note')).toBe('hello');
    expect(got.modalFromMessage?.isModalSubmit() && got.modalFromMessage.isFromMessage()).toBe(true);
    const user = got.userCommand;
    expect(user?.isUserContextMenuCommand() && user.targetUser.id).toBe(other.id);
    const onMessage = got.messageCommand;
    expect(onMessage?.isMessageContextMenuCommand() && onMessage.targetMessage.content).toBe('menus');
    const users = got.users;
    expect(users?.isUserSelectMenu() && [...users.users.keys()]).toEqual([other.id]);
    const roles = got.roles;
    expect(roles?.isRoleSelectMenu() && roles.roles.first()?.name).toBe('Bakers');
    const any = got.mentionables;
    expect(any?.isMentionableSelectMenu() && [any.users.size, any.roles.size]).toEqual([1, 1]);
    const channels = got.channels;
    expect(channels?.isChannelSelectMenu() && channels.channels.first()?.type).toBe(ChannelType.GuildText);
  });

  it('GIVEN the bot denied Send Messages in a channel THEN discord.js sees it and Discord refuses its post with 50013', async () => {
    const channelId = '900000000000000061';
    fake.addChannel(channelId, 'announcements');
    const guild = client.guilds.cache.first();
    expect(guild?.members.me?.id).toBe(client.user?.id);
    await waitFor(() => guild?.channels.cache.get(channelId), { what: 'the new channel' });
    fake.denyBot(channelId, ['SendMessages']);
    const mayPost = () =>
      guild?.channels.cache
        .get(channelId)
        ?.permissionsFor(guild.members.me ?? '')
        ?.has(PermissionFlagsBits.SendMessages);
    await waitFor(() => mayPost() === false, { what: 'the denial on the gateway' });
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new Error('not a text channel');
    const refused = await channel.send('hello').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DiscordAPIError);
    expect((refused as DiscordAPIError).code).toBe(50013);
    expect(mayPost()).toBe(false);
  });
});

describe("the fake Discord gives and takes members' roles as Discord does", () => {
  const fake = new FakeDiscord({ refusals: 'expected' });
  const rolePath = (userId: string, roleId: string, guildId = GUILD_ID) =>
    `/guilds/${guildId}/members/${userId}/roles/${roleId}`;
  const bakers = { id: '900000000000000070', name: 'Bakers' };
  const above = { id: '900000000000000071', name: 'Moderators', position: BOT_ROLE_POSITION + 1 };
  const boosters = { id: '900000000000000072', name: 'Server Booster', managed: true };

  beforeAll(async () => {
    await fake.start();
    fake.addMember(member);
    for (const role of [bakers, above, boosters]) fake.addRole(role);
  });

  afterAll(() => fake.stop());

  it("GIVEN a role below the bot's THEN PUT and DELETE answer 204, twice alike, and the member shows it", async () => {
    expect((await send(fake, 'PUT', rolePath(member.id, bakers.id))).status).toBe(204);
    expect((await send(fake, 'PUT', rolePath(member.id, bakers.id))).status).toBe(204);
    expect(fake.memberRoles(member.id)).toEqual([bakers.id]);
    const shown = await send(fake, 'GET', `/guilds/${GUILD_ID}/members/${member.id}`);
    expect(shown.body.roles).toEqual([bakers.id]);
    expect((await send(fake, 'DELETE', rolePath(member.id, bakers.id))).status).toBe(204);
    expect((await send(fake, 'DELETE', rolePath(member.id, bakers.id))).status).toBe(204);
    expect(fake.memberRoles(member.id)).toEqual([]);
  });

  it("GIVEN a role above the bot's, a managed one, or a bot without Manage Roles THEN 403 50013 Missing Permissions and nothing changes", async () => {
    const missing = { status: 403, body: { code: 50013, message: 'Missing Permissions' } };
    expect(await send(fake, 'PUT', rolePath(member.id, above.id))).toEqual(missing);
    expect(await send(fake, 'PUT', rolePath(member.id, boosters.id))).toEqual(missing);
    fake.removeBotPermission('ManageRoles');
    expect(await send(fake, 'PUT', rolePath(member.id, bakers.id))).toEqual(missing);
    fake.restoreBotPermissions();
    expect(fake.memberRoles(member.id)).toEqual([]);
  });

  it('GIVEN an unknown server, role or member THEN 404 with 10004, 10011 or 10007', async () => {
    const code = async (path: string) => {
      const answer = await send(fake, 'PUT', path);
      return [answer.status, answer.body.code];
    };
    expect(await code(rolePath(member.id, bakers.id, '900000000000000099'))).toEqual([404, 10004]);
    expect(await code(rolePath(member.id, '900000000000000098'))).toEqual([404, 10011]);
    expect(await code(rolePath(other.id, bakers.id))).toEqual([404, 10007]);
  });

  it('GIVEN a role an admin deletes THEN its holders no longer hold it', async () => {
    const seasonal = { id: '900000000000000073', name: 'Winter' };
    fake.addRole(seasonal);
    expect((await send(fake, 'PUT', rolePath(member.id, seasonal.id))).status).toBe(204);
    fake.removeRole(seasonal.id);
    expect(fake.memberRoles(member.id)).not.toContain(seasonal.id);
  });

  it('GIVEN the roles as GUILD_CREATE sends them THEN their positions rank the bot above the roles added without one', () => {
    const guild = new FakeGuild();
    guild.addRole(bakers);
    const sent = guild.apiGuild().roles.map((r) => [r.id, r.position, r.managed]);
    expect(sent).toEqual([
      [GUILD_ID, 0, false],
      [BOT_ROLE_ID, BOT_ROLE_POSITION, true],
      [bakers.id, 1, false],
    ]);
  });
});
