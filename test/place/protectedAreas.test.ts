import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { isAppError } from '../../src/errors.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { PlaceEconomy } from '../../utils/money/placeEconomy.js';
import { AreaStore } from '../../utils/place/areaStore.js';
import { MAX_AREAS, type Painter } from '../../utils/place/areas.js';
import { PlaceService } from '../../utils/place/placeService.js';
import { PlaceStore } from '../../utils/place/placeStore.js';
import { TemplateStore } from '../../utils/place/templateStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('place_areas');
const POINT = 1_000;
const ROLE = '891200000000000777';
const MEMBER: Painter = { isModerator: false, roleIds: [] };
const HOLDER: Painter = { isModerator: false, roleIds: ['891200000000000001', ROLE] };
const MODERATOR: Painter = { isModerator: true, roleIds: [] };
let ops = 0;

async function funded(deps: BotDeps, member: string, points = 1_000) {
  await deps.services.place.grant({
    opId: `grant:${member}`,
    moderatorId: 'mod',
    to: member,
    amount: points * POINT,
    reason: '',
  });
  return member;
}

function paint(deps: BotDeps, userId: string, x: number, y: number, painter?: Painter) {
  ops += 1;
  return deps.services.place.place({
    opId: `op${ops}`,
    userId,
    x,
    y,
    color: 5,
    ...(painter ? { painter } : {}),
  });
}

function protect(
  deps: BotDeps,
  name: string,
  rect: [number, number, number, number],
  roleId: string | null = null,
) {
  ops += 1;
  const [x1, y1, x2, y2] = rect;
  return deps.services.place.areas.protect({ id: `area${ops}`, name, x1, y1, x2, y2, roleId, by: 'admin' });
}

async function booksClean(deps: BotDeps) {
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
}

describe('protected areas', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a moderators-only area WHEN a member paints its corners and edges THEN each is refused with its name and nothing is charged', async () => {
    const { deps } = makeBotDeps(t);
    const member = await funded(deps, '891200000000000101');
    await protect(deps, 'Logo', [10, 20, 14, 22]);
    for (const [x, y] of [
      [10, 20],
      [14, 22],
      [10, 22],
      [14, 20],
      [12, 21],
    ] as const) {
      const refusal = await paint(deps, member, x, y, MEMBER).catch((e: unknown) => e);
      expect(isAppError(refusal, 'PIXEL_PROTECTED'), `(${x}, ${y})`).toBe(true);
      expect(refusal).toMatchObject({ context: { x, y, area: 'Logo', role: '' } });
    }
    // A member's request without a painter is a member with no roles.
    await expect(paint(deps, member, 11, 21)).rejects.toMatchObject({ code: 'PIXEL_PROTECTED' });
    const wallet = await deps.services.place.wallet(member);
    expect(wallet).toMatchObject({ balance: 1_000 * POINT, placements: 0 });
    expect(await deps.services.place.pixelInfo(10, 20)).toBeNull();
    expect(await deps.services.place.unfinishedOf(member)).toBe(0);
    // Just outside every edge is free.
    for (const [x, y] of [
      [9, 20],
      [15, 22],
      [12, 19],
      [12, 23],
    ] as const) {
      await expect(paint(deps, member, x, y, MEMBER)).resolves.toMatchObject({ x, y });
    }
    await booksClean(deps);
  });

  it('GIVEN an area for a role WHEN a moderator, a holder of the role and another member paint THEN only the member is refused', async () => {
    const { deps } = makeBotDeps(t);
    const member = await funded(deps, '891200000000000201');
    const holder = await funded(deps, '891200000000000202');
    const moderator = await funded(deps, '891200000000000203');
    await protect(deps, 'Memorial', [0, 0, 3, 3], ROLE);
    await expect(paint(deps, moderator, 0, 0, MODERATOR)).resolves.toMatchObject({ x: 0, y: 0 });
    await expect(paint(deps, holder, 3, 3, HOLDER)).resolves.toMatchObject({ x: 3, y: 3 });
    await expect(paint(deps, member, 1, 1, MEMBER)).rejects.toMatchObject({
      code: 'PIXEL_PROTECTED',
      context: { area: 'Memorial', role: ROLE },
    });
    // Overlapping a moderators-only area: the role no longer suffices where that one covers.
    await protect(deps, 'Frame', [2, 2, 5, 5]);
    await expect(paint(deps, holder, 2, 2, HOLDER)).rejects.toMatchObject({ context: { area: 'Frame' } });
    await expect(paint(deps, holder, 1, 1, HOLDER)).resolves.toMatchObject({ x: 1, y: 1 });
    await expect(paint(deps, moderator, 2, 2, MODERATOR)).resolves.toMatchObject({ x: 2, y: 2 });
    await booksClean(deps);
  });

  it('GIVEN areas WHEN one is named twice, too long, off the canvas, the 51st, or removed unknown THEN each is refused with its numbers', async () => {
    const { deps } = makeBotDeps(t);
    const size = await deps.services.place.size();
    await protect(deps, 'Logo', [0, 0, 1, 1]);
    await expect(protect(deps, 'LOGO', [5, 5, 6, 6])).rejects.toMatchObject({
      context: { messageKey: 'place:areas.errors.taken', name: 'LOGO' },
    });
    await expect(protect(deps, 'x'.repeat(33), [5, 5, 6, 6])).rejects.toMatchObject({
      context: { messageKey: 'place:areas.errors.name', max: 32, length: 33 },
    });
    await expect(protect(deps, 'Edge', [0, 0, size.width, 1])).rejects.toMatchObject({
      context: { messageKey: 'place:areas.errors.outside', maxX: size.width - 1 },
    });
    for (let i = 1; i < MAX_AREAS; i++) await protect(deps, `Area ${i}`, [i, i, i, i]);
    await expect(protect(deps, 'One too many', [0, 0, 0, 0])).rejects.toMatchObject({
      context: { messageKey: 'place:areas.errors.tooMany', max: MAX_AREAS },
    });
    expect(await deps.services.place.areas.list()).toHaveLength(MAX_AREAS);
    await expect(deps.services.place.areas.unprotect('nope')).rejects.toMatchObject({
      context: { messageKey: 'place:areas.errors.unknown' },
    });
    await expect(deps.services.place.areas.unprotect('logo')).resolves.toMatchObject({ name: 'Logo' });
    expect(await deps.services.place.areas.list()).toHaveLength(MAX_AREAS - 1);
  });

  it('GIVEN 49 areas WHEN two moderators protect the 50th at once THEN one area stands and the other is refused', async () => {
    const { deps, clock } = makeBotDeps(t);
    for (let i = 0; i < MAX_AREAS - 1; i++) await protect(deps, `Race ${i}`, [i, 0, i, 0]);
    clock.advance(1_000);
    const outcomes = await Promise.allSettled([
      protect(deps, 'From Discord', [0, 5, 1, 5]),
      protect(deps, 'From the portal', [0, 6, 1, 6]),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ context: { messageKey: 'place:areas.errors.tooMany' } });
    expect(await deps.services.place.areas.list()).toHaveLength(MAX_AREAS);
  });

  it('GIVEN a placement in flight WHEN its pixel is protected before it is written THEN it was accepted before the area and the books stay clean', async () => {
    const { deps } = makeBotDeps(t);
    const member = await funded(deps, '891200000000000301');
    let made = false;
    const place = new PlaceService({
      ...deps,
      store: new PlaceStore(t.db),
      areaStore: new AreaStore(t.db),
      templateStore: new TemplateStore(t.db),
      economy: new PlaceEconomy(deps.ledger),
      afterAllocate: async () => {
        if (made) return;
        made = true;
        await protect(deps, 'Late', [40, 40, 41, 41]);
      },
    });
    await expect(
      place.place({ opId: 'inflight', userId: member, x: 40, y: 40, color: 3, painter: MEMBER }),
    ).resolves.toMatchObject({ x: 40, y: 40, replayed: false });
    // A retry of the accepted placement is its answer, not a refusal; a new one is refused.
    await expect(
      place.place({ opId: 'inflight', userId: member, x: 40, y: 40, color: 3, painter: MEMBER }),
    ).resolves.toMatchObject({ replayed: true });
    await expect(
      place.place({ opId: 'after', userId: member, x: 41, y: 41, color: 3, painter: MEMBER }),
    ).rejects.toMatchObject({ code: 'PIXEL_PROTECTED' });
    expect(await deps.services.place.wallet(member)).toMatchObject({ placements: 1 });
    await booksClean(deps);
  });

  it('GIVEN 30 placements racing an area over their pixels THEN each is placed and paid or refused and unpaid', async () => {
    const { deps } = makeBotDeps(t);
    const members = Array.from({ length: 30 }, (_, i) => `8912000000000004${String(i).padStart(2, '0')}`);
    await Promise.all(members.map((m) => funded(deps, m)));
    const cost = await deps.services.place.pixelCost();
    const results = await Promise.all([
      ...members.map((m, i) =>
        paint(deps, m, 50 + (i % 5), 50, MEMBER).then(
          () => true,
          () => false,
        ),
      ),
      protect(deps, 'Race', [50, 50, 54, 50]).then(() => null),
    ]);
    for (const [i, m] of members.entries()) {
      const wallet = await deps.services.place.wallet(m);
      expect(wallet).toMatchObject(
        results[i]
          ? { placements: 1, balance: 1_000 * POINT - cost }
          : { placements: 0, balance: 1_000 * POINT },
      );
    }
    await expect(paint(deps, members[0] as string, 52, 50, MEMBER)).rejects.toMatchObject({
      code: 'PIXEL_PROTECTED',
    });
    await booksClean(deps);
  });
});
