import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { toPayload } from '../../src/discord/discordResponder.js';
import type { Reply } from '../../src/interactions/reply.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import { ADMIN_ID, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { commandInvocation } from '../support/invocations.js';
import { RecordingResponder } from '../support/recordingResponder.js';

const t = useTestDatabase('role_setting');
const GUILD = '900000000000000700';
const BUILDERS = '123456789012345678';
/** The canvas's template role: members with it may register canvas templates (per server). */
const KEY = 'place_template_role';

/** An admin's `/settings` in the server, as the runtime receives it; what came back. */
async function settings(
  subcommand: string,
  options: Record<string, string | boolean>,
  locale = 'en',
): Promise<{ replies: Reply[]; text: string }> {
  const responder = new RecordingResponder();
  await runtime.dispatch(
    commandInvocation({
      commandName: 'settings',
      subcommand,
      options,
      user: { id: ADMIN_ID, name: 'ada' },
      guildId: GUILD,
      locale,
    }),
    responder,
  );
  const text = responder.sent
    .flatMap((r) => [
      r.content ?? '',
      ...(r.embeds ?? []).flatMap((e) => [e.description ?? '', ...(e.fields ?? []).map((f) => f.value)]),
    ])
    .join('\n');
  return { replies: responder.sent, text };
}

let deps: ReturnType<typeof makeBotDeps>['deps'];
let runtime: InteractionRuntime;

/** The role in force in the server. */
const held = () => deps.runtimeConfig.get(KEY, GUILD);

describe('a role setting through /settings', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    deps = makeBotDeps(t).deps;
    runtime = new InteractionRuntime(deps, ASSEMBLY);
  });

  it('GIVEN /settings set with a role mention THEN the reply and /settings show name the role as <@&id>, only its id is stored, and nobody is pinged', async () => {
    const set = await settings('set', { key: KEY, value: `<@&${BUILDERS}>` });
    expect(set.text).toContain(`off → **<@&${BUILDERS}>**`);
    // Discord notifies no role a reply mentions: the payload lets it notify nobody.
    for (const reply of set.replies) {
      expect(toPayload(reply).allowedMentions).toEqual({ parse: [], users: [], repliedUser: false });
    }
    expect(await held()).toBe(BUILDERS);
    const stored = await t.cols.runtimeConfig.findOne({ _id: `${GUILD}:${KEY}` });
    expect(stored?.value).toBe(BUILDERS);

    const shown = await settings('show', { feature: 'place' });
    expect(shown.text).toContain(`\`${KEY}\` **<@&${BUILDERS}>** (default off)`);
    expect(shown.text).not.toContain(`<#${BUILDERS}>`);
    for (const reply of shown.replies) expect(toPayload(reply).allowedMentions.parse).toEqual([]);
  });

  it("GIVEN /settings set with the role's bare id THEN it is taken as that role", async () => {
    const set = await settings('set', { key: KEY, value: BUILDERS });
    expect(set.text).toContain(`→ **<@&${BUILDERS}>**`);
    expect(await held()).toBe(BUILDERS);
  });

  it.each([
    ['off', 'en', `<@&${BUILDERS}> → **off**`],
    ['aus', 'de', `<@&${BUILDERS}> → **aus**`],
  ])(
    'GIVEN a role set WHEN an admin sets %s THEN it names no role, stored as null',
    async (word, locale, said) => {
      await settings('set', { key: KEY, value: `<@&${BUILDERS}>` });
      const off = await settings('set', { key: KEY, value: word }, locale);
      expect(off.text).toContain(said);
      expect(await held()).toBeNull();
      expect((await t.cols.runtimeConfig.findOne({ _id: `${GUILD}:${KEY}` }))?.value).toBeNull();
    },
  );

  it.each([
    ['a channel mention', `<#${BUILDERS}>`],
    ['a member mention', `<@${BUILDERS}>`],
    ["a role's name as text", 'Builders'],
  ])(
    'GIVEN %s THEN /settings set refuses it as not a role, in either language, and nothing changes',
    async (_, value) => {
      await settings('set', { key: KEY, value: `<@&${BUILDERS}>` });
      const before = await t.cols.runtimeConfig.find().toArray();

      const refused = await settings('set', { key: KEY, value });
      expect(refused.text).toContain(
        `"${value}" is not valid for ${KEY}: it must be a role (@name), its id, or off.`,
      );
      const german = await settings('set', { key: KEY, value }, 'de');
      expect(german.text).toContain('muss eine Rolle (@name), deren ID oder aus sein');

      expect(await t.cols.runtimeConfig.find().toArray()).toEqual(before);
      expect(await held()).toBe(BUILDERS);
    },
  );

  it("GIVEN a default role and this server's own WHEN an admin resets it THEN both read as roles and the default holds again", async () => {
    const other = '123456789012345679';
    await settings('set', { key: KEY, value: `<@&${other}>`, everywhere: true });
    await settings('set', { key: KEY, value: `<@&${BUILDERS}>` });
    const reset = await settings('reset', { key: KEY });
    expect(reset.text).toContain(`<@&${BUILDERS}> → **<@&${other}>** (the default again)`);
    expect(await held()).toBe(other);
    const none = await settings('reset', { key: KEY });
    expect(none.text).toContain(`it uses the default (<@&${other}>)`);
  });

  it('GIVEN a default role WHEN an admin types the key THEN the suggestion shows the role as @id, plain text', async () => {
    await settings('set', { key: KEY, value: `<@&${BUILDERS}>`, everywhere: true });
    const choices = await runtime.complete(
      commandInvocation({
        kind: 'autocomplete',
        commandName: 'settings',
        subcommand: 'set',
        focused: { name: 'key', value: 'place_template' },
        user: { id: ADMIN_ID, name: 'ada' },
      }),
    );
    expect(choices).toEqual([{ name: `${KEY} (now @${BUILDERS})`, value: KEY }]);
  });
});
