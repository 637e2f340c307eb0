import type { Clock } from '../../../src/clock.js';
import type { Collections } from '../../../src/db/collections.js';
import type { Logger } from '../../../src/logger.js';
import type { OperationSpec } from './documents.js';

/**
 * Records an attempt that needs the recovery pass before its grace period (a compensation
 * or an undo that could not be written). The invariant checker lists open records; the
 * recovery pass resolves them. Never throws: the marker left behind is enough for recovery.
 */
export async function recordStuck(
  deps: { cols: Collections; clock: Clock; log: Logger },
  spec: OperationSpec,
  att: string,
  problem: string,
): Promise<void> {
  try {
    await deps.cols.ledgerStuckOps.updateOne(
      { _id: `${spec.opId}#${att}` },
      {
        $setOnInsert: { opId: spec.opId, attempt: att, spec, at: deps.clock.now() },
        $set: { problem, resolvedAt: null, resolution: null },
      },
      { upsert: true },
    );
  } catch (error) {
    deps.log.fatal(
      { event: 'ledger.stuck.record_failed', opId: spec.opId, attempt: att, err: error, problem },
      'could not record a stuck operation; its marker remains for the recovery pass',
    );
  }
}
