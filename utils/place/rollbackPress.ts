import type { FeatureServices } from '../../src/features/feature.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { RollbackDoc } from './rollbackStore.js';

/** What pressing a rollback's button did: `gone` when it was applied or cancelled already. */
export interface RollbackPressed {
  outcome: 'applied' | 'cancelled' | 'gone';
  restored: number;
  skipped: number;
  /** Milli-points paid back to the member. */
  refunded: number;
  /** The rollback as it stands after the press (null: no such rollback). */
  status: RollbackDoc['status'] | null;
}

/**
 * A moderator's **Roll back**, **Roll back and refund** or **Cancel** on a previewed rollback,
 * from Discord's buttons or the web: applied once whoever presses (`PlaceRollbacks.apply`), and
 * audited once under `place.rollback:<id>` in the server's language.
 */
export async function pressRollback(
  services: Pick<FeatureServices, 'place' | 'admin'>,
  serverI18n: Translator,
  press: { id: string; action: 'apply' | 'refund' | 'cancel'; actorId: string },
): Promise<RollbackPressed> {
  const { rollbacks } = services.place;
  const { id } = press;
  const statusNow = async () => (await rollbacks.get(id))?.status ?? null;
  if (press.action === 'cancel') {
    const cancelled = await rollbacks.cancel(id);
    const outcome = cancelled ? 'cancelled' : 'gone';
    return { outcome, restored: 0, skipped: 0, refunded: 0, status: await statusNow() };
  }
  const result = await rollbacks.apply(id, press.action === 'refund');
  if (result.restored + result.skipped === 0 && result.plan.status !== 'previewed') {
    return { outcome: 'gone', restored: 0, skipped: 0, refunded: 0, status: await statusNow() };
  }
  await services.admin.record({
    id: `place.rollback:${id}`,
    kind: 'place.rollback',
    actorId: press.actorId,
    subjectId: result.plan.target,
    text: serverI18n.t('place:admin.audit.placeRolledBack', {
      actor: press.actorId,
      user: result.plan.target,
      count: result.restored,
      refund: serverI18n.points(result.refunded),
    }),
  });
  const { restored, skipped, refunded } = result;
  return { outcome: 'applied', restored, skipped, refunded, status: await statusNow() };
}
