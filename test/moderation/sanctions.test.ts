import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { isAppError } from '../../src/errors.js';
import { SanctionStore } from '../../utils/moderation/sanctionStore.js';
import { Sanctions } from '../../utils/moderation/sanctions.js';
import { parseBanLength } from '../../utils/moderation/scopes.js';
import { PlaceEconomy } from '../../utils/money/placeEconomy.js';
import { AreaStore } from '../../utils/place/areaStore.js';
import { PlaceService } from '../../utils/place/placeService.js';
import { PlaceStore } from '../../utils/place/placeStore.js';
import { TemplateStore } from '../../utils/place/templateStore.js';
import { grantPlacePoints, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('moderation');
const MEMBER = '893000000000000001';
const OTHER = '893000000000000002';
const MOD = '893000000000000009';
const HOUR = 3_600_000;

const ban = (over: Partial<Parameters<Sanctions['ban']>[0]> = {}) => ({
  member: MEMBER,
  scope: 'painting' as const,
  lengthMs: HOUR,
  reason: 'spam',
  by: MOD,
  byAdmin: false,
  ...over,
});

async function refusal(check: Promise<unknown>): Promise<string | null> {
  try {
    await check;
    return null;
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
}

describe('moderators’ bans', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a painting ban THEN painting is refused with the scope, end and reason, and games and the economy are not', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.services.moderation.ban(ban());
    const error = await deps.services.moderation.refuse(MEMBER, 'painting').catch((e: unknown) => e);
    expect(isAppError(error, 'SANCTIONED') && error.context).toEqual({
      scope: 'painting',
      until: new Date(clock.now().getTime() + HOUR).toISOString(),
      reason: 'spam',
    });
    expect(await refusal(deps.services.moderation.refuse(MEMBER, 'games'))).toBeNull();
    expect(await refusal(deps.services.moderation.refuse(MEMBER, 'economy'))).toBeNull();
    expect(await refusal(deps.services.moderation.refuse(OTHER, 'painting'))).toBeNull();
  });

  it('GIVEN an economy ban THEN painting, games and every other movement are refused', async () => {
    const { deps } = makeBotDeps(t);
    await deps.services.moderation.ban(ban({ scope: 'economy' }));
    for (const scope of ['painting', 'games', 'economy'] as const)
      expect(await refusal(deps.services.moderation.refuse(MEMBER, scope))).toBe('SANCTIONED');
  });

  it('GIVEN a ban of one hour WHEN its end is reached exactly THEN the member may act again, a millisecond before not', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.services.moderation.ban(ban());
    await deps.services.moderation.ban(ban({ member: OTHER, lengthMs: null, byAdmin: true }));
    clock.advance(HOUR - 1);
    expect(await refusal(deps.services.moderation.refuse(MEMBER, 'painting'))).toBe('SANCTIONED');
    clock.advance(1);
    expect(await refusal(deps.services.moderation.refuse(MEMBER, 'painting'))).toBeNull();
    expect((await deps.services.moderation.list()).map((s) => s.member)).toEqual([OTHER]);
    // Over, and removed by the hourly retention; a permanent ban stays.
    expect(await ASSEMBLY.prune(deps, clock.now())).toMatchObject({ 'moderation.sanctions': 1 });
    expect(await refusal(deps.services.moderation.refuse(OTHER, 'painting'))).toBe('SANCTIONED');
  });

  it('GIVEN a moderator who is not an admin THEN up to 7 days is theirs to give, longer or permanent needs an admin', async () => {
    const { deps } = makeBotDeps(t);
    expect(await refusal(deps.services.moderation.ban(ban({ lengthMs: 7 * 24 * HOUR + 1 })))).toBe(
      'SANCTION_NEEDS_ADMIN',
    );
    expect(await refusal(deps.services.moderation.ban(ban({ lengthMs: null })))).toBe('SANCTION_NEEDS_ADMIN');
    expect(await deps.services.moderation.list()).toEqual([]);
    expect((await deps.services.moderation.ban(ban({ lengthMs: 7 * 24 * HOUR }))).outcome).toBe('banned');
    expect((await deps.services.moderation.ban(ban({ lengthMs: null, byAdmin: true }))).outcome).toBe(
      'extended',
    );
    expect((await deps.services.moderation.list(MEMBER))[0]?.until).toBeNull();
  });

  it('GIVEN two moderators banning one member at once THEN one record stands, the one that ends later, whichever lands last', async () => {
    for (let round = 0; round < 10; round++) {
      await clearDatabase(t.db);
      const { deps, clock } = makeBotDeps(t);
      const lengths = round % 2 === 0 ? [HOUR, 3 * HOUR] : [3 * HOUR, HOUR];
      const outcomes = await Promise.all(
        lengths.map((lengthMs, i) =>
          deps.services.moderation.ban(
            ban({ lengthMs, by: `89300000000000001${i}`, reason: `r${lengthMs}` }),
          ),
        ),
      );
      const bans = await deps.services.moderation.list(MEMBER);
      expect(bans).toHaveLength(1);
      expect(bans[0]).toMatchObject({
        until: new Date(clock.now().getTime() + 3 * HOUR),
        reason: `r${3 * HOUR}`,
      });
      expect(outcomes.map((o) => o.outcome).sort()).toContain('banned');
    }
  });

  it('GIVEN a shorter ban over a longer one THEN the longer stands and says so; a lift ends it at once', async () => {
    const { deps } = makeBotDeps(t);
    await deps.services.moderation.ban(ban({ lengthMs: 3 * HOUR }));
    const kept = await deps.services.moderation.ban(ban({ lengthMs: HOUR, reason: 'again' }));
    expect(kept).toMatchObject({ outcome: 'kept', sanction: { reason: 'spam' } });
    expect(await deps.services.moderation.lift(MEMBER, 'painting')).toMatchObject({ reason: 'spam' });
    expect(await refusal(deps.services.moderation.refuse(MEMBER, 'painting'))).toBeNull();
    expect(await deps.services.moderation.lift(MEMBER, 'painting')).toBeNull();
  });

  it('GIVEN a ban that ended WHEN the member is banned again THEN the new ban replaces it', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.services.moderation.ban(ban({ lengthMs: 3 * HOUR }));
    clock.advance(4 * HOUR);
    const again = await deps.services.moderation.ban(ban({ lengthMs: HOUR, reason: 'again' }));
    expect(again).toMatchObject({ outcome: 'extended', sanction: { reason: 'again' } });
    expect(await refusal(deps.services.moderation.refuse(MEMBER, 'painting'))).toBe('SANCTIONED');
  });

  it('reads ban lengths as the other duration options do', () => {
    expect(parseBanLength('30m')).toBe(30 * 60_000);
    expect(parseBanLength('1h')).toBe(HOUR);
    expect(parseBanLength('7d')).toBe(7 * 24 * HOUR);
    expect(parseBanLength('2w')).toBe(14 * 24 * HOUR);
    for (const bad of ['', '0h', 'h', '1y', '-1d', '1.5h']) expect(parseBanLength(bad)).toBeNull();
  });
});

describe('a ban and a placement in flight', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a placement past the check and not yet written WHEN a painting ban lands THEN it completes, the next is refused, and the books stay clean', async () => {
    const { deps } = makeBotDeps(t);
    await grantPlacePoints(deps, [MEMBER], 1_000);
    let release = () => {};
    let allocated = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reached = new Promise<void>((resolve) => {
      allocated = resolve;
    });
    const place = new PlaceService({
      ...deps,
      store: new PlaceStore(t.db),
      areaStore: new AreaStore(t.db),
      templateStore: new TemplateStore(t.db),
      economy: new PlaceEconomy(deps.ledger),
      sanctions: new Sanctions({ store: new SanctionStore(t.db), clock: deps.clock }),
      afterAllocate: async () => {
        allocated();
        await held;
      },
    });
    const inFlight = place.place({ opId: 'first', userId: MEMBER, x: 1, y: 1, color: 3 });
    await reached;
    await deps.services.moderation.ban(ban());
    release();
    const placed = await inFlight;
    expect(placed).toMatchObject({ x: 1, y: 1, color: 3, replayed: false });
    // Its retry is the answer it had; a new placement is refused and stores nothing.
    expect(await place.place({ opId: 'first', userId: MEMBER, x: 1, y: 1, color: 3 })).toMatchObject({
      revision: placed.revision,
      replayed: true,
    });
    expect(await refusal(place.place({ opId: 'second', userId: MEMBER, x: 2, y: 2, color: 3 }))).toBe(
      'SANCTIONED',
    );
    expect(
      await refusal(deps.services.place.place({ opId: 'third', userId: MEMBER, x: 2, y: 2, color: 3 })),
    ).toBe('SANCTIONED');
    expect(await place.unfinishedOf(MEMBER)).toBe(0);
    await deps.ledger.flush();
    expect(await place.wallet(MEMBER)).toMatchObject({ balance: 900_000, placements: 1 });
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  });
});
