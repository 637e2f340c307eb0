import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { APP_ID, FakeDiscord, GUILD_ID } from '../support/fakeDiscord.js';
import { runNode } from '../support/nodeProcess.js';

describe('npm run deploy-commands', () => {
  const fake = new FakeDiscord();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('registers every command definition to the development guild', async () => {
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
    expect(((put?.body ?? []) as unknown as { name: string }[]).map((c) => c.name)).toEqual(
      COMMANDS.map((c) => c.data.name),
    );
    expect(stdout).toContain(`deployed ${COMMANDS.length} commands to guild ${GUILD_ID}`);
  });
});
