import { describe, expect, it } from 'vitest';
import { runPool } from '../../src/concurrency.js';
import { isAppError } from '../../src/errors.js';
import { COOKIE_KINDS } from '../../utils/money/cookieEconomy.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import { makeBotDeps } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { mixedAction } from '../support/mixedActions.js';

const t = useTestDatabase('economy_mixed');
const MEMBERS = Array.from({ length: 50 }, (_, i) => `87000000000000${String(i).padStart(4, '0')}`);
const PHASES = 5;
const OPS_PER_PHASE = 420;
const IN_FLIGHT = 50;
const HOUR = 3_600_000;

const member = (i: number) => MEMBERS[i % MEMBERS.length] as string;

describe('the whole Cookie economy under load', () => {
  it('GIVEN 2,100 collects, gives, steals, heist joins and game rounds by 50 members at once THEN the books balance and the supply is exactly grants + collects − what the vault kept', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.runtimeConfig.set('cookies.steal_cooldown_s', '0', 'admin');
    await deps.services.vault.fund({ opId: 'bankroll', adminId: 'admin', amount: 2_000_000, reason: '' });
    for (const m of MEMBERS) {
      await deps.profiles.touch({ id: m, name: m });
      await deps.services.cookies.grant({
        opId: `grant-${m}`,
        adminId: 'admin',
        to: m,
        amount: 2_000,
        reason: '',
      });
    }
    clock.advance(25 * HOUR);

    const done = new Map<string, number>();
    const refused = new Map<string, number>();
    let rounds = 0;
    for (let phase = 0; phase < PHASES; phase++) {
      const heistId = `heist-${phase}`;
      await deps.services.vault.startHeist({
        heistId,
        leader: member(phase),
        stake: 50 + phase,
        locale: 'en',
      });
      const results = await runPool(OPS_PER_PHASE, IN_FLIGHT, (i) =>
        mixedAction(deps, member, phase, i, heistId),
      );
      for (const r of results) {
        if (r.status === 'fulfilled') done.set(r.value, (done.get(r.value) ?? 0) + 1);
        else if (isAppError(r.reason)) refused.set(r.reason.code, (refused.get(r.reason.code) ?? 0) + 1);
        else throw r.reason;
      }
      rounds += results.filter((r) => r.status === 'fulfilled' && r.value === 'round').length;
      clock.advance(HOUR + 1_000);
      await deps.scheduler.runDue(); // closes the heist, stands abandoned hands
    }
    clock.advance(HOUR);
    await deps.scheduler.runDue();
    await deps.ledger.flush();

    const attempted = [...done.values(), ...refused.values()].reduce((a, b) => a + b, 0);
    expect(attempted).toBe(PHASES * OPS_PER_PHASE);
    expect(rounds).toBeGreaterThan(900);
    for (const kind of ['collect', 'give', 'steal', 'heist join', 'round'])
      expect(done.get(kind) ?? 0).toBeGreaterThan(50);

    const report = await checkInvariants(t.cols);
    expect(report.problems).toEqual([]);

    const house = deps.ledger.houseAccountId;
    const vault = await deps.ledger.queries.totalsByKind('cookies', house);
    const totals = await Promise.all(MEMBERS.map((m) => deps.ledger.queries.totalsByKind('cookies', m)));
    const sum = (kind: string, side: 'in' | 'out') =>
      totals.reduce((n, t) => n + (t.get(kind)?.[side] ?? 0), 0);
    const supply = (await Promise.all(MEMBERS.map((m) => deps.ledger.balanceOf('cookies', m)))).reduce(
      (a, b) => a + b,
      0,
    );
    const grants = sum(COOKIE_KINDS.grant, 'in');
    const collects = sum(COOKIE_KINDS.collect, 'in');
    const funding = vault.get(COOKIE_KINDS.vaultFund)?.in ?? 0;
    const vaultBalance = await deps.ledger.balanceOf('cookies', house);
    const vaultKept = vaultBalance - funding;
    // Members and the vault hold every Cookie: the pots (never negative) are all empty again.
    expect(report.totals.cookies.balances).toBe(supply + vaultBalance);
    expect(supply).toBe(grants + collects - vaultKept);
    console.info(
      `mixed run: ${attempted} actions (${[...done].map(([k, n]) => `${k} ${n}`).join(', ')}; refused ${[...refused].map(([k, n]) => `${k} ${n}`).join(', ')}); ` +
        `supply ${supply} = grants ${grants} + collects ${collects} − vault kept ${vaultKept}`,
    );
  }, 300_000); // a long workload: on a machine busy with other work it runs past the default minute
});
