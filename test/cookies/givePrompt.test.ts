import { beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../src/errors.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems, seedBalance } from '../support/ledgerHarness.js';

const t = useTestDatabase('give_prompt');
const ANN = '810000000000000001';
const BEN = '810000000000000002';

describe('a Give prompt', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN Give and Cancel pressed on 60 prompts, in either order or at once THEN each prompt either paid and says so, or moved nothing', async () => {
    const { deps } = makeBotDeps(t);
    const cookies = deps.services.cookies;
    await seedBalance(deps.ledger, ANN, 1_000);
    // A third each: Give settles first, Cancel settles first, both start together.
    const results = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const promptId = `race-${i}`;
        await cookies.openGive({ promptId, from: ANN, to: BEN, amount: 5 });
        const give = () => cookies.confirmGive(promptId, ANN);
        const cancel = () => cookies.cancelGive(promptId, ANN);
        if (i % 3 === 0) {
          const given = await give();
          return { given, cancelled: await cancel() };
        }
        if (i % 3 === 1) {
          const cancelled = await cancel();
          return { given: await give(), cancelled };
        }
        const [given, cancelled] = await Promise.all([give(), cancel()]);
        return { given, cancelled };
      }),
    );
    let paid = 0;
    for (const { given, cancelled } of results) {
      if (given.status === 'given') {
        paid += 1;
        expect(cancelled).toMatchObject({ status: 'too_late' });
      } else {
        expect(given).toMatchObject({ status: 'closed', why: 'cancelled' });
        expect(cancelled.status).toBe('cancelled');
      }
    }
    expect(paid).toBeGreaterThanOrEqual(20);
    expect(paid).toBeLessThanOrEqual(40);
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('cookies', BEN)).toBe(paid * 5);
    expect(await deps.ledger.balanceOf('cookies', ANN)).toBe(1_000 - paid * 5);
    expect(await booksProblems(t.cols)).toEqual([]);
    console.info(`give/cancel race: ${paid} of 60 prompts paid, ${60 - paid} cancelled`);
  });

  it('GIVEN a Give refused for lack of Cookies THEN the prompt stays confirmable and pays once Cookies arrive', async () => {
    const { deps } = makeBotDeps(t);
    const cookies = deps.services.cookies;
    await seedBalance(deps.ledger, ANN, 30);
    await cookies.openGive({ promptId: 'p1', from: ANN, to: BEN, amount: 30 });
    await deps.ledger.debit({
      opId: 'spend',
      currency: 'cookies',
      account: ANN,
      amount: 20,
      kind: 'test.spend',
    });
    const refused = await cookies.confirmGive('p1', ANN).catch((e: unknown) => e);
    expect(isAppError(refused, 'INSUFFICIENT_COOKIES')).toBe(true);
    expect(await cookies.cancelGive('p1', ANN)).toMatchObject({ status: 'too_late', why: 'pressed' });
    await seedBalance(deps.ledger, ANN, 20);
    expect(await cookies.confirmGive('p1', ANN)).toMatchObject({ status: 'given' });
    expect(await cookies.confirmGive('p1', ANN)).toMatchObject({ status: 'already_given' });
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('cookies', BEN)).toBe(30);
  });

  it('is purged by its timer a day after it expired', async () => {
    const { deps, clock } = makeBotDeps(t);
    await seedBalance(deps.ledger, ANN, 10);
    await deps.services.cookies.openGive({ promptId: 'old', from: ANN, to: BEN, amount: 5 });
    clock.advance(10 * 60_000 + 86_400_000 - 1);
    await deps.scheduler.runDue();
    expect(await t.db.collection('cookies_give_prompts').countDocuments()).toBe(1);
    clock.advance(1);
    expect(await deps.scheduler.runDue()).toBe(1);
    expect(await t.db.collection('cookies_give_prompts').countDocuments()).toBe(0);
  });
});
