import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { buttonId, FakeDiscord, type FakeUser, type VisibleMessage } from '../support/fakeDiscord.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('discord_apps_forms');

/** The text boxes of a form as Discord got it: one a row. */
function boxes(form: VisibleMessage | undefined) {
  return ((form?.modal?.components ?? []) as { components: Record<string, unknown>[] }[]).map(
    (row) => row.components[0] as { custom_id: string; label: string; placeholder?: string; style: number },
  );
}

describe("Discord's own idioms through the real discord.js client: apps on a member, forms, Link buttons", () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t, { env: { PUBLIC_URL: 'https://cookies.example.org' } });
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  async function withCookies(member: FakeUser, amount: number): Promise<void> {
    fake.addMember(member);
    await harness.deps.services.cookies.grant({
      opId: `grant-${member.id}`,
      adminId: ADMIN_ID,
      to: member.id,
      amount,
      reason: '',
    });
  }

  it('GIVEN Apps › Give Cookies on a member THEN a form tells the balance, its amount opens the give, and a bad amount changes nothing', async () => {
    const ada = freshMember('ada');
    const bo = freshMember('bo');
    await withCookies(ada, 1_500);
    fake.addMember(bo);

    const [form] = await fake.waitFor(fake.userCommand(ada, 'Give Cookies', bo));
    expect(form?.via).toBe('modal');
    expect(form?.modal?.title).toBe('Give Cookies to bo');
    expect(boxes(form)).toEqual([
      expect.objectContaining({
        custom_id: 'amount',
        label: 'How many Cookies?',
        placeholder: 'You have 1,500 🍪',
      }),
    ]);
    const formId = form?.modal?.custom_id as string;

    const [refused] = await fake.waitFor(fake.submitModal(ada, null, formId, { amount: '12abc' }));
    expect(refused?.ephemeral).toBe(true);
    expect(refused?.content).toContain('“12abc” is not a whole amount');
    const [tooMuch] = await fake.waitFor(fake.submitModal(ada, null, formId, { amount: '2.000' }));
    expect(tooMuch?.ephemeral).toBe(true);
    expect(tooMuch?.content).toContain('1,500');
    expect(await harness.deps.services.cookies.balance(ada.id)).toBe(1_500);

    const [prompt] = await fake.waitFor(fake.submitModal(ada, null, formId, { amount: '1.000' }));
    expect(prompt?.ephemeral).toBe(true);
    expect(prompt?.content).toContain('Give **1,000 🍪**');
    await fake.waitFor(fake.click(ada, prompt as VisibleMessage, buttonId(prompt, 'Give')));
    expect(await harness.deps.services.cookies.balance(bo.id)).toBe(1_000);
    expect(await harness.deps.services.cookies.balance(ada.id)).toBe(500);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a German member THEN the apps and the form speak German, and giving to oneself is refused before any form', async () => {
    const eva = freshMember('eva', 'de');
    await withCookies(eva, 40);
    const [form] = await fake.waitFor(fake.userCommand(eva, 'Give Cookies', freshMember('jan')));
    expect(form?.modal?.title).toBe('Kekse an jan schenken');
    expect(boxes(form)[0]?.placeholder).toBe('Du hast 40 🍪');
    const [self] = await fake.waitFor(fake.userCommand(eva, 'Give Cookies', eva));
    expect(self?.via).not.toBe('modal');
    expect(self?.ephemeral).toBe(true);
  });

  it('GIVEN Apps › Cookie profile and Apps › Steal Cookies THEN they act as /cookies profile and /cookies steal on that member', async () => {
    const kim = freshMember('kim');
    const lou = freshMember('lou');
    await withCookies(lou, 300);
    fake.addMember(kim);
    const card = (await fake.waitFor(fake.userCommand(kim, 'Cookie profile', lou))).at(-1);
    expect(card?.ephemeral).toBe(false);
    expect(card?.embeds[0]?.description).toContain('**300 🍪**');
    expect(card?.files.map((f) => f.name)).toEqual(['profile.png']);
    // A thief steals into the loot bag their collect fills.
    await fake.waitFor(fake.command(kim, 'cookies', ['collect']));
    const [robbery] = await fake.waitFor(fake.userCommand(kim, 'Steal Cookies', lou));
    expect(robbery?.content).toContain(`<@${lou.id}>`);
    // The steal's cooldown is the command's: a second try from the menu is refused with its time.
    const [again] = await fake.waitFor(fake.userCommand(kim, 'Steal Cookies', lou));
    expect(again?.ephemeral).toBe(true);
    expect(again?.content).toMatch(/<t:\d+:R>/);
  });

  it('GIVEN a coinflip played THEN Again… asks the bet in a form, filled with the last one, and plays the same side again', async () => {
    const ned = freshMember('ned');
    await withCookies(ned, 500);
    await harness.deps.services.vault.fund({
      opId: 'vault-again',
      adminId: ADMIN_ID,
      amount: 100_000,
      reason: '',
    });
    const [round] = await fake.waitFor(fake.command(ned, 'games', ['coinflip'], { bet: 10, side: 'tails' }));
    const [form] = await fake.waitFor(fake.click(ned, round as VisibleMessage, buttonId(round, 'Again…')));
    expect(form?.via).toBe('modal');
    expect(boxes(form)[0]).toEqual(expect.objectContaining({ custom_id: 'bet', value: '10' }));
    const before = await harness.deps.services.cookies.balance(ned.id);
    const [tooLow] = await fake.waitFor(
      fake.submitModal(ned, round as VisibleMessage, form?.modal?.custom_id as string, { bet: '0' }),
    );
    expect(tooLow?.ephemeral).toBe(true);
    expect(await harness.deps.services.cookies.balance(ned.id)).toBe(before);
    const [again] = await fake.waitFor(
      fake.submitModal(ned, round as VisibleMessage, form?.modal?.custom_id as string, { bet: '25' }),
    );
    expect(again?.ephemeral).toBe(false);
    expect(again?.id).not.toBe(round?.id);
    expect(again?.embeds[0]?.description).toContain('you bet on tails');
    const played = await harness.deps.services.games.verify(null, ned.id);
    expect(played.round.bet).toBe(25);
  });

  it('GIVEN a poker table THEN Sit… takes any buy-in between its limits in a form, and refuses one outside with the numbers', async () => {
    const pia = freshMember('pia');
    await withCookies(pia, 1_500);
    const [table] = await fake.waitFor(
      fake.command(pia, 'poker', ['create'], { small_blind: 10, max_buy_in: 1_000 }),
    );
    const [form] = await fake.waitFor(fake.click(pia, table as VisibleMessage, buttonId(table, 'Sit…')));
    expect(form?.via).toBe('modal');
    expect(boxes(form)[0]?.placeholder).toBe('400 to 1,000 · you have 1,500 🍪');
    const formId = form?.modal?.custom_id as string;
    const [tooLittle] = await fake.waitFor(
      fake.submitModal(pia, table as VisibleMessage, formId, { buyin: '5' }),
    );
    expect(tooLittle?.ephemeral).toBe(true);
    expect(tooLittle?.content).toMatch(/400.*1,000/);
    expect(await harness.deps.services.cookies.balance(pia.id)).toBe(1_500);
    const seated = await fake.waitFor(
      fake.submitModal(pia, table as VisibleMessage, formId, { buyin: '555' }),
    );
    expect(seated.at(-1)?.via).toBe('update');
    expect(await harness.deps.services.cookies.balance(pia.id)).toBe(945);
  });

  it('GIVEN /place web THEN the sign-in link is a Link button on the public URL, not text to copy', async () => {
    const [reply] = await fake.waitFor(fake.command(freshMember('max'), 'place', ['web']));
    expect(reply?.ephemeral).toBe(true);
    expect(reply?.content).not.toContain('http');
    const link = reply?.components.flatMap((row) => row.components).find((c) => c.style === 5);
    expect(link?.label).toBe('Open the canvas');
    expect(link?.url).toMatch(/^https:\/\/cookies\.example\.org\/place\/login\?token=[\w-]+$/);
  });
});
