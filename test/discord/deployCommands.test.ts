import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { deployedDefinitions } from '../../src/discord/commandLimits.js';
import { APP_ID, FakeDiscord, GUILD_ID } from '../support/fakeDiscord.js';
import { runNode } from '../support/nodeProcess.js';

describe('npm run deploy-commands', () => {
  const fake = new FakeDiscord();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('registers every command definition and context-menu entry to the development guild', async () => {
    const { code, stdout } = await runNode(['app/deployCommands.ts'], {
      env: {
        DISCORD_TOKEN: 'fake-token',
        DISCORD_APPLICATION_ID: APP_ID,
        DEV_GUILD_ID: GUILD_ID,
        DISCORD_API_URL: fake.apiUrl,
      },
    });
    expect(code).toBe(0);
    const put = fake.calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe(`/applications/${APP_ID}/guilds/${GUILD_ID}/commands`);
    const { slash, menus } = deployedDefinitions(COMMANDS);
    expect(((put?.body ?? []) as unknown as { name: string; type?: number }[]).map((c) => c.name)).toEqual([
      ...slash.map((c) => c.name),
      ...menus.map((c) => c.name),
    ]);
    expect(menus.map((m) => m.name)).toEqual(['Give Cookies', 'Cookie profile', 'Steal Cookies']);
    expect(stdout).toContain(
      `deployed ${slash.length + menus.length} commands and menu entries to guild ${GUILD_ID}`,
    );
  });
});
