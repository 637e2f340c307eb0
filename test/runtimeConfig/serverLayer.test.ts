import { beforeEach, describe, expect, it } from 'vitest';
import { PostRefused } from '../../src/posting/channelPoster.js';
import { inServer } from '../../src/runtimeConfig/serverContext.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

/**
 * Settings in two layers: the default every server shares, and a server's own value for the
 * settings that may differ by server (its channels and switches). Two servers in one database.
 */
const t = useTestDatabase('runtime_server_layer');
const A = '900000000000000401';
const B = '900000000000000402';

describe('a server’s own settings', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN stealing switched off in server A THEN A reads off, B and the default still on, and a reset gives A the default back', async () => {
    const { deps } = makeBotDeps(t);
    const config = deps.runtimeConfig;
    const change = await config.set('cookies.steal_enabled', 'off', 'mod-a', { guildId: A });
    expect(change).toMatchObject({ before: true, after: false, guildId: A, revision: 1 });
    expect(await inServer(A, () => config.get('cookies.steal_enabled'))).toBe(false);
    expect(await inServer(B, () => config.get('cookies.steal_enabled'))).toBe(true);
    expect(await config.get('cookies.steal_enabled')).toBe(true);
    // The default changes for B, not for A, which set its own.
    await config.set('cookies.steal_enabled', 'off', 'admin');
    await config.set('cookies.steal_enabled', 'on', 'mod-a', { guildId: A });
    expect(await inServer(A, () => config.get('cookies.steal_enabled'))).toBe(true);
    expect(await inServer(B, () => config.get('cookies.steal_enabled'))).toBe(false);
    const listed = (await config.list(A)).find((s) => s.key === 'cookies.steal_enabled');
    expect(listed).toMatchObject({
      scope: 'server',
      value: false,
      server: { value: true, updatedBy: 'mod-a' },
    });
    expect(await config.reset('cookies.steal_enabled', A, 'mod-a')).toEqual({ before: true, after: false });
    expect(await config.reset('cookies.steal_enabled', A, 'mod-a')).toBeNull();
    expect(await inServer(A, () => config.get('cookies.steal_enabled'))).toBe(false);
  });

  it('GIVEN a constant of the economy THEN no server may set its own, and its value is the same everywhere', async () => {
    const { deps } = makeBotDeps(t);
    const config = deps.runtimeConfig;
    expect(config.scope('place_pixel_cost')).toBe('global');
    await expect(config.set('place_pixel_cost', '5', 'mod-a', { guildId: A })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      context: { messageKey: 'core:errors.settingGlobal', key: 'place_pixel_cost' },
    });
    await config.set('place_pixel_cost', '150', 'admin');
    expect(await inServer(A, () => config.get('place_pixel_cost'))).toBe(150);
    expect((await config.list(A)).find((s) => s.key === 'place_pixel_cost')).toMatchObject({
      scope: 'global',
      server: null,
    });
  });

  it('GIVEN two moderators of one server changing its channel at the same revision THEN one wins, the other is told', async () => {
    const { deps } = makeBotDeps(t);
    const config = deps.runtimeConfig;
    const results = await Promise.allSettled([
      config.set('vault.heist_channel', '900000000000000501', 'mod-1', { guildId: A, revision: 0 }),
      config.set('vault.heist_channel', '900000000000000502', 'mod-2', { guildId: A, revision: 0 }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
      code: 'SETTING_STALE',
    });
    // The default layer was not touched: another server still has no heist channel.
    expect(await inServer(B, () => config.get('vault.heist_channel'))).toBeNull();
  });

  it('GIVEN a change made by another process THEN this one reads it in the server within its cache time', async () => {
    const first = makeBotDeps(t).deps.runtimeConfig;
    const second = makeBotDeps(t).deps.runtimeConfig;
    expect(await second.get('cookies.give_enabled', A)).toBe(true);
    await first.set('cookies.give_enabled', 'off', 'mod-a', { guildId: A });
    // The test deps read settings with no cache (RUNTIME_CONFIG_TTL_MS 0).
    expect(await second.get('cookies.give_enabled', A)).toBe(false);
    expect(await second.get('cookies.give_enabled', B)).toBe(true);
  });

  it('GIVEN a default bakery channel and server A’s own THEN a post in A goes to A’s, in B to the default, and one of the whole bot to both once', async () => {
    const { deps, transport } = makeBotDeps(t);
    const [DEFAULT, OWN] = ['900000000000000701', '900000000000000702'];
    await deps.runtimeConfig.set('cookies.bakery_channel', DEFAULT, 'admin');
    await deps.runtimeConfig.set('cookies.bakery_channel', OWN, 'mod-a', { guildId: A });
    // Server B set the default's channel as its own: the bot's post reaches that channel once.
    await deps.runtimeConfig.set('cookies.bakery_channel', DEFAULT, 'mod-b', { guildId: B });
    await inServer(A, () => deps.poster.post('cookies.bakery_channel', { content: 'in A' }));
    await inServer(B, () => deps.poster.post('cookies.bakery_channel', { content: 'in B' }));
    await deps.poster.post('cookies.bakery_channel', { content: 'everyone' });
    const where = (content: string) =>
      transport.posts.filter((p) => p.post.content === content).map((p) => p.channelId);
    expect(where('in A')).toEqual([OWN]);
    expect(where('in B')).toEqual([DEFAULT]);
    expect(where('everyone').sort()).toEqual([DEFAULT, OWN]);
  });

  it('GIVEN server A’s own channel refusing posts THEN A’s posts stop there, and the default’s go on', async () => {
    const { deps, transport } = makeBotDeps(t);
    const [DEFAULT, OWN] = ['900000000000000711', '900000000000000712'];
    await deps.runtimeConfig.set('cookies.bakery_channel', DEFAULT, 'admin');
    await deps.runtimeConfig.set('cookies.bakery_channel', OWN, 'mod-a', { guildId: A });
    transport.refuse.set(OWN, new PostRefused('Missing Access'));
    await inServer(A, () => deps.poster.post('cookies.bakery_channel', { content: 'first' }));
    expect((await inServer(A, () => deps.poster.status('cookies.bakery_channel'))).stopped).not.toBeNull();
    expect((await deps.poster.status('cookies.bakery_channel')).stopped).toBeNull();
    await deps.poster.post('cookies.bakery_channel', { content: 'day share' });
    expect(transport.posts.map((p) => p.channelId)).toEqual([DEFAULT]);
  });
});
