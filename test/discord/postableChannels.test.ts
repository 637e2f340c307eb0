import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, startFakeBot } from '../support/discordHarness.js';
import { CHANNEL_ID, FakeDiscord } from '../support/fakeDiscord.js';
import { waitFor } from '../support/waitFor.js';

const t = useTestDatabase('discord_postable_channels');

describe('the channels an admin may pick for a setting', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t);
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  it('GIVEN channels where the bot may or may not post THEN only those it can post in are listed, in the server order', async () => {
    fake.addChannel('900000000000000701', 'canvas');
    fake.addChannel('900000000000000702', 'rules');
    fake.denyBot('900000000000000702', ['SendMessages']);
    fake.addChannel('900000000000000703', 'gallery');
    fake.denyBot('900000000000000703', ['AttachFiles']);
    fake.addChannel('900000000000000704', 'staff');
    fake.denyBot('900000000000000704', ['ViewChannel']);
    fake.addChannel('900000000000000705', 'bakery');
    // Editing its older posts is said when the channel is set; posting needs only the four.
    fake.denyBot('900000000000000705', ['ReadMessageHistory']);
    const listed = await waitFor(
      async () => {
        const channels = await harness.deps.poster.postableChannels();
        return channels?.some((c) => c.id === '900000000000000705') ? channels : null;
      },
      { timeoutMs: 5_000, intervalMs: 20, what: 'the bakery channel in the bot’s cache' },
    );
    expect(listed).toEqual([
      { id: CHANNEL_ID, name: 'general' },
      { id: '900000000000000701', name: 'canvas' },
      { id: '900000000000000705', name: 'bakery' },
    ]);
  });

  it('GIVEN a denial taken back THEN the channel is offered again', async () => {
    fake.restoreBot('900000000000000702');
    await waitFor(
      async () => (await harness.deps.poster.postableChannels())?.some((c) => c.name === 'rules') === true,
      { timeoutMs: 5_000, intervalMs: 20 },
    );
  });
});

describe('where there is no Discord', () => {
  it('GIVEN the console THEN there is no list, so a page asks for an id', async () => {
    const { deps } = makeConsole(t);
    expect(await deps.poster.postableChannels()).toBeNull();
  });
});
