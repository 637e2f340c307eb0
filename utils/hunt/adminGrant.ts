import { invalidInputText } from '../../src/errors.js';
import type { FeatureServices } from '../../src/features/feature.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { balanceAfter } from '../money/ledger/ledger.js';

/**
 * A moderator's grant of Place points to a member or a worker (`/admin place grant`,
 * `POST /api/admin/place/points`): a worker's points go to its owner, resolved now, with the
 * worker as the source in the ledger and in the admin bonus event; the grant is audited. The
 * operation id makes a retried grant a no-op.
 */
export async function grantPlacePoints(
  services: Pick<FeatureServices, 'place' | 'hunt' | 'workers' | 'admin'>,
  serverI18n: Translator,
  grant: {
    opId: string;
    moderatorId: string;
    member?: string;
    worker?: string;
    milli: number;
    reason: string;
  },
): Promise<{ owner: string; balance: number }> {
  const { worker } = grant;
  const owner = worker ? await services.workers.linkedOwner(worker) : grant.member;
  if (!owner)
    throw invalidInputText(`no worker ${worker}`, 'hunt:admin.grant.noWorker', { worker: worker ?? '' });
  const outcome = await services.place.grant({
    opId: grant.opId,
    moderatorId: grant.moderatorId,
    to: owner,
    amount: grant.milli,
    reason: grant.reason,
    source: worker ?? grant.moderatorId,
  });
  await services.hunt.recordAdminGrant({
    opId: grant.opId,
    moderatorId: grant.moderatorId,
    source: worker ?? owner,
    owner,
    milli: grant.milli,
    reason: grant.reason,
  });
  await services.admin.record({
    id: grant.opId,
    kind: 'place.grant',
    actorId: grant.moderatorId,
    subjectId: owner,
    text: serverI18n.t('hunt:admin.audit.placeGranted', {
      actor: grant.moderatorId,
      amount: serverI18n.points(grant.milli),
      to: owner,
      reason: grant.reason,
    }),
  });
  return { owner, balance: balanceAfter(outcome, owner) ?? (await services.place.wallet(owner)).balance };
}
