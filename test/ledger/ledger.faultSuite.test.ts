import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/database.js';
import { runFaultSuite } from '../support/faultRun.js';

const t = useTestDatabase('fault_suite');

describe('the randomised fault suite', () => {
  it('GIVEN 5% of replies lost and requests stalled past the grace while recovery runs elsewhere THEN nothing is minted or lost', async () => {
    const seed = Number(process.env.FAULT_SEED ?? 6);
    const r = await runFaultSuite({ serverUri: t.uri, dbName: t.name, seed, ops: 600 });
    console.info(
      `faults (seed ${seed}; longer: npm run test:faults -- --seed ${seed} --ops 20000): ops=${r.ops} calls=${r.calls} ` +
        `cut_replies=${r.cutReplies} stalls=${r.stalls} late_deliveries=${r.lateDeliveries} ` +
        `succeeded=${r.succeeded} refused=${r.refused} gave_up=${r.gaveUp} max_fences_per_document=${r.fences.maxPerDocument} ` +
        `violations=${r.violations.length}`,
    );
    expect(r.violations).toEqual([]);
    expect(r.succeeded + r.refused + r.gaveUp).toBe(600);
    // The run exercised what it claims to: lost replies, late deliveries, and the other process's recovery.
    expect(r.cutReplies).toBeGreaterThan(50);
    expect(r.lateDeliveries).toBeGreaterThan(0);
    expect(r.recovery.rolledForward + r.recovery.rolledBack).toBeGreaterThan(0);
    expect(r.fences.leftAfterPrune).toBe(0);
  }, 300_000);
});
