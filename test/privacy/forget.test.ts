import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import type { ManualClock } from '../../src/clock.js';
import { isAppError } from '../../src/errors.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { COOKIE_KINDS } from '../../utils/money/cookieEconomy.js';
import { fundVaultAndMembers, grantPlacePoints, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { everything, naming } from '../support/databaseScan.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { mixedAction } from '../support/mixedActions.js';

/**
 * docs/operating.md, "Privacy": after a member is forgotten their Discord id, their workers' ids
 * and their name are in no collection any more, only the pseudonym is; the books and the canvas
 * still balance; what was theirs alone is gone.
 */
const t = useTestDatabase('privacy_forget');
const ZORA = '874000000000000001';
const ZORA_NAME = 'Zora Quill';
const OTHERS = Array.from({ length: 6 }, (_, i) => `87400000000000010${i}`);
const EVERYONE = [ZORA, ...OTHERS];
const GUILD = '874100000000000001';
const OTHER_GUILD = '874100000000000002';

/** A member's whole life with the bot: every feature that keeps something of them. */
async function liveALife(deps: BotDeps, clock: ManualClock) {
  await deps.runtimeConfig.set('cookies.steal_cooldown_s', '0', 'admin');
  await fundVaultAndMembers(deps, 1_000_000, EVERYONE, 5_000);
  for (const m of EVERYONE) {
    await deps.profiles.touch({ id: m, name: m === ZORA ? ZORA_NAME : `member ${m.slice(-3)}` });
    await deps.serverMembers.seen(GUILD, {
      id: m,
      name: m === ZORA ? ZORA_NAME : `member ${m.slice(-3)}`,
      joinedAt: new Date('2025-06-01T10:00:00Z'),
    });
  }
  // She is in a second server too, named there by someone else's command.
  await deps.serverMembers.seen(OTHER_GUILD, { id: OTHERS[0] as string, name: 'Ben', joinedAt: null }, [
    { id: ZORA, name: ZORA_NAME, joinedAt: new Date('2025-07-01T10:00:00Z') },
  ]);
  await grantPlacePoints(deps, EVERYONE, 5_000);
  clock.advance(25 * 3_600_000);
  const member = (i: number) => EVERYONE[i % EVERYONE.length] as string;
  await deps.services.vault.startHeist({ heistId: 'h-zora', leader: ZORA, stake: 60, locale: 'en' });
  for (let i = 0; i < 96; i++) {
    try {
      await mixedAction(deps, member, 0, i, 'h-zora');
    } catch (error) {
      if (!isAppError(error)) throw error;
    }
  }
  for (let i = 0; i < 12; i++) {
    await deps.services.place.place({ opId: `z-${i}`, userId: ZORA, x: i, y: 1, color: 5 });
  }
  // Another member paints over two of hers; her other pixels stay hers.
  await deps.services.place.place({ opId: 'over-1', userId: OTHERS[0] as string, x: 0, y: 1, color: 9 });
  await deps.services.place.place({ opId: 'over-2', userId: OTHERS[0] as string, x: 1, y: 1, color: 9 });
  const kept = await deps.services.workers.link(ZORA, 'laptop');
  const gone = await deps.services.workers.link(ZORA, 'old phone');
  await deps.services.workers.unlink(ZORA, gone._id);
  const { window } = await deps.services.hunt.tip(ZORA, [4, 4, 4, 4, 4, 4, 4, 4], null, {
    channelId: null,
    locale: 'en',
  });
  await deps.services.hunt.tip(kept._id, [6, 6, 6, 6, 6, 6, 6, 6], null);
  clock.advanceTo(window.closesAt);
  await deps.services.web.openSession({ userId: ZORA, name: ZORA_NAME, roleIds: [], locale: 'de' });
  await deps.services.web.createLink({ userId: ZORA, name: ZORA_NAME, roleIds: [] });
  await deps.services.web.allow(`write:member:${ZORA}`, { limit: 100, windowMs: 60_000 });
  clock.advance(2 * 3_600_000);
  await deps.scheduler.runDue();
  await deps.ledger.flush();
  return { workers: [kept._id, gone._id] };
}

describe('forgetting a member', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a member who played, painted, hunted with workers and signed in on the web WHEN they are forgotten THEN their id, their workers and their name are in no collection, the pseudonym is, and every book balances', async () => {
    const { deps, clock } = makeBotDeps(t);
    const { workers } = await liveALife(deps, clock);
    const before = await everything(t.db);
    expect(naming(before, ZORA).length).toBeGreaterThan(50);
    expect(before).toContain(ZORA_NAME);
    const cookies = await deps.services.cookies.balance(ZORA);
    const vaultBefore = await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId);

    const erasure = await deps.services.privacy.forget(deps.services, ZORA, 'self', 'en');
    expect(erasure.state).toBe('done');
    await deps.ledger.flush();

    const after = await everything(t.db);
    expect(naming(after, ZORA)).toEqual([]);
    for (const worker of workers) expect(naming(after, worker)).toEqual([]);
    expect(after).not.toContain(ZORA_NAME);
    expect(naming(after, erasure.pseudonym).length).toBeGreaterThan(50);
    // What was hers alone is gone: profile, server memberships, web sessions and links, workers, cooldowns.
    expect(await deps.serverMembers.joinedAt(GUILD, ZORA)).toBeNull();
    expect(await deps.serverMembers.joinedAt(OTHER_GUILD, ZORA)).toBeNull();
    expect((await deps.serverMembers.members(GUILD)).size).toBe(OTHERS.length);
    for (const gone of [
      'profiles',
      'server_members',
      'web_sessions',
      'web_links',
      'identity_delegations',
      'cooldown_cookies',
    ]) {
      expect(naming(after, erasure.pseudonym).filter((line) => line.startsWith(`${gone} `))).toEqual([]);
    }
    // Her Cookies went to the vault, audited; her account is closed and empty.
    expect(await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId)).toBe(vaultBefore + cookies);
    const forfeit = await t.db
      .collection('ledger_events')
      .findOne({ kind: COOKIE_KINDS.forfeit, leg: 'credit' });
    expect(forfeit?.amount).toBe(cookies);
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
    // Her pixels keep their colours, painted by "a former member" in either language.
    const pixel = await deps.services.place.pixelInfo(5, 1);
    expect(pixel?.pixel?.owner).toBe(erasure.pseudonym);
    expect(deps.i18n.for('en').member(erasure.pseudonym)).toBe('a former member');
    expect(deps.i18n.for('de').member(erasure.pseudonym)).toBe('ein ehemaliges Mitglied');
    expect(deps.i18n.for('de').member(erasure.pseudonym, 'dative')).toBe('einem ehemaligen Mitglied');
    // The audit names the pseudonym, never her id.
    const audit = await t.db
      .collection('due_tasks')
      .findOne({ _id: `admin.audit.post:privacy.erased:${erasure._id}` as never });
    expect(String(audit?.payload?.text)).toContain(erasure.pseudonym);

    // She may come back: a fresh start under her id.
    clock.advance(3_600_000);
    await deps.services.collect.collect(ZORA, 'command');
    expect(await deps.services.cookies.balance(ZORA)).toBeGreaterThan(0);
    expect(await booksProblems(t.cols)).toEqual([]);
  }, 120_000);

  it('GIVEN a blackjack hand still open THEN forgetting is refused with what is in play, and nothing changes until it ends', async () => {
    const { deps, clock } = makeBotDeps(t);
    await fundVaultAndMembers(deps, 100_000, [ZORA], 1_000);
    clock.advance(25 * 3_600_000);
    // A hand dealt a blackjack settles at once: deal until one waits for her.
    let hand = await deps.services.games.startBlackjack({ roundId: 'bj-0', userId: ZORA, bet: 50 });
    for (let i = 1; hand.status !== 'playing' && i < 20; i++) {
      hand = await deps.services.games.startBlackjack({ roundId: `bj-${i}`, userId: ZORA, bet: 50 });
    }
    expect(hand.status).toBe('playing');
    const balance = await deps.services.cookies.balance(ZORA);
    const refusal = await deps.services.privacy
      .forget(deps.services, ZORA, 'self', 'en')
      .catch((e: unknown) => e);
    expect(isAppError(refusal, 'PRIVACY_IN_PLAY')).toBe(true);
    expect((refusal as { context: Record<string, unknown> }).context).toEqual({ game: 1 });
    expect(
      deps.i18n.for('de').t('privacy:errors.PRIVACY_IN_PLAY', {
        what: deps.i18n.for('de').t('privacy:inPlay.game', { count: 1 }),
      }),
    ).toContain('1 Spielrunde');
    expect(await deps.services.cookies.balance(ZORA)).toBe(balance);
    expect(await t.db.collection('privacy_erasures').countDocuments()).toBe(0);
    await deps.services.games.blackjack(hand._id, ZORA, 'stand', hand.step);
    const done = await deps.services.privacy.forget(deps.services, ZORA, 'self', 'en');
    expect(done.state).toBe('done');
    expect(await booksProblems(t.cols)).toEqual([]);
  });
});
