import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

/*
 * The canvas's books checked from a checkpoint (the simulation's daily check) against the
 * full check, when a placement asked before the checkpoint is written after it: its event
 * is dated when it was asked for, yet it is the pixel's newest.
 */
const t = useTestDatabase('place_audit_since');
const POINT = 1_000;
const ADA = '891000000000000001';
const BO = '891000000000000002';

async function grant(deps: BotDeps, to: string, points: number, opId: string): Promise<void> {
  await deps.services.place.grant({ opId, moderatorId: 'mod', to, amount: points * POINT, reason: '' });
}

describe('the canvas check from a checkpoint', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a refused placement asked again after midnight with its id, on a pixel painted since THEN the day’s check agrees with the full check', async () => {
    const { deps, clock } = makeBotDeps(t);
    clock.advanceTo(new Date('2026-03-01T23:00:00Z'));
    await grant(deps, BO, 500, 'g-bo');
    // Ada has no points yet: refused, and the same id is asked again later.
    await expect(
      deps.services.place.place({ opId: 'k', userId: ADA, x: 5, y: 5, color: 1 }),
    ).rejects.toThrow();
    clock.advance(90 * 60_000);
    const dayStart = new Date('2026-03-02T00:00:00Z');
    await deps.services.place.place({ opId: 'b', userId: BO, x: 5, y: 5, color: 2 });
    await grant(deps, ADA, 500, 'g-ada');
    await deps.services.place.place({ opId: 'k', userId: ADA, x: 5, y: 5, color: 1 });
    await deps.ledger.flush();
    const now = deps.clock.now();
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, now)).toEqual([]);
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, now, dayStart)).toEqual([]);
    // A pixel that differs from its newest event is still named from the checkpoint.
    await t.db.collection<{ _id: string }>('place_pixels').updateOne({ _id: '5:5' }, { $set: { color: 7 } });
    const daily = await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, now, dayStart);
    expect(daily).toEqual([
      expect.stringMatching(/^pixel 5:5 is colour 7 at revision \d+, its newest event says 1 at \d+$/),
    ]);
  });
});
