import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { TableStore } from '../../utils/poker/tableStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { PROCESS_TEST_TIMEOUT_MS, runNode } from '../support/nodeProcess.js';

const t = useTestDatabase('holds_books');
const ANN = '895000000000000001';
const BEN = '895000000000000002';

/**
 * The checker reads the books of every owner of money in play. Each inconsistency below is
 * seeded by hand (as a bug or an operator's edit would leave it), and each must be named.
 */
describe('books that reconcile per owner', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('GIVEN one of each inconsistency THEN check:invariants names every owner and exits 1', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.services.vault.fund({ opId: 'fund', adminId: 'admin', amount: 100_000, reason: '' });
    for (const m of [ANN, BEN])
      await deps.services.cookies.grant({
        opId: `g-${m}`,
        adminId: 'admin',
        to: m,
        amount: 5_000,
        reason: '',
      });
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, clock.now())).toEqual([]);

    // A table that says it closed while a member still sits at it with chips.
    await deps.runtimeConfig.set('poker.start_delay_s', '3600', 'admin');
    await deps.services.poker.create({
      tableId: 'closed-with-chips',
      hostId: BEN,
      channelId: null,
      locale: 'en',
    });
    await deps.services.poker.join('closed-with-chips', ANN, 300);
    const tables = new TableStore(t.db);
    const open = await tables.get('closed-with-chips');
    if (!open) throw new Error('no table');
    await tables.swap(open, { ...open, status: 'closed' });
    // A table whose pot holds more than its books say.
    await deps.services.poker.create({ tableId: 'fat-pot', hostId: BEN, channelId: null, locale: 'en' });
    await deps.services.poker.join('fat-pot', BEN, 300);
    await deps.ledger.credit({
      opId: 'stray',
      currency: 'cookies',
      account: 'pot:poker:fat-pot',
      amount: 7,
      kind: 'test.stray',
    });
    // A settled round whose holds paid other than it recorded.
    const round = await deps.services.games.playInstant('coinflip', {
      roundId: 'round-1',
      userId: ANN,
      bet: 100,
      params: { side: 'heads' },
    });
    await t.db.collection('games_rounds').updateOne({ _id: round._id as never }, { $set: { payout: 1_000 } });
    // A hold left open past its deadline, and a hold of a settled round still open.
    await deps.holds.reserve({
      id: 'forgotten',
      currency: 'cookies',
      from: ANN,
      amount: 50,
      kind: 'games.stake',
      source: ANN,
      owner: { kind: 'game', id: 'round-1' },
      ttlMs: 1_000,
    });
    const now = new Date(clock.now().getTime() + 3_600_000);
    const problems = await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, now);
    const named = (text: string) => problems.some((p) => p.includes(text));
    expect(problems.filter((p) => p.includes('poker table closed-with-chips'))).not.toEqual([]);
    expect(named('poker table closed-with-chips: closed, yet seats hold chips')).toBe(true);
    expect(named('poker table fat-pot: its pot holds 307, its books say in 300 − out 0 − rake 0 = 300')).toBe(
      true,
    );
    expect(named('game round round-1: settled with payout 1000, but its holds paid')).toBe(true);
    expect(named('game round round-1: settled, yet holds are open: forgotten (held)')).toBe(true);
    expect(named('hold forgotten (game round-1): still held at 50 past its deadline')).toBe(true);

    // The command an operator runs says the same and exits 1.
    const { code, stdout } = await runNode(['app/checkInvariants.ts'], {
      env: { MONGODB_URI: t.uri, MONGODB_DB_NAME: t.name, LOG_LEVEL: 'silent' },
    });
    expect(code).toBe(1);
    expect(stdout).toContain('DIFFERENCE game round round-1: settled with payout 1000');
    expect(stdout).toContain('DIFFERENCE poker table closed-with-chips');
  });
});
