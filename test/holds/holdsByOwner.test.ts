import { describe, expect, it } from 'vitest';
import { HOLDS, type HoldDoc } from '../../utils/money/holds/holdStore.js';
import { holdsByOwner } from '../../utils/money/holds/invariants.js';
import { useTestDatabase } from '../support/database.js';

const t = useTestDatabase('holds_by_owner');

function hold(owner: string, n: number): HoldDoc {
  const at = new Date('2026-12-01T12:00:00Z');
  return {
    _id: `${owner}-${n}`,
    currency: 'cookies',
    account: `hold:${owner}-${n}`,
    from: 'member',
    amount: 10,
    kind: 'games.stake',
    source: 'games',
    reason: 'coinflip',
    owner: { kind: 'game', id: owner },
    state: 'posted',
    deadline: at,
    createdAt: at,
  };
}

describe("the checker's holds by owner", () => {
  it('GIVEN more owners than one $in names THEN every owner asked for gets all its holds, and no other owner any', async () => {
    const owners = Array.from({ length: 600 }, (_, i) => `round-${i}`);
    await t.db
      .collection<HoldDoc>(HOLDS)
      .insertMany([...owners.flatMap((o) => [hold(o, 1), hold(o, 2)]), hold('not-asked', 1)]);
    const found = await holdsByOwner(t.db, 'game', [...owners, 'round-7', 'no-such-round']);
    expect(found.size).toBe(600);
    expect(
      found
        .get('round-0')
        ?.map((h) => h._id)
        .sort(),
    ).toEqual(['round-0-1', 'round-0-2']);
    expect(found.get('round-599')).toHaveLength(2);
    expect(found.has('not-asked')).toBe(false);
    expect((await holdsByOwner(t.db, 'game')).size).toBe(601);
  });
});
