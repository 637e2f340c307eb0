import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { ServerMembers } from '../../src/profiles/serverMembers.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('server_members');
const A = '900000000000000001';
const B = '900000000000000002';
const MIA = '810000000000000001';
const BEN = '810000000000000002';
const JOINED = new Date('2024-05-04T03:02:01.000Z');

describe('the members the bot has seen in each server', () => {
  let clock: ManualClock;
  let members: ServerMembers;
  beforeEach(async () => {
    await clearDatabase(t.db);
    clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));
    members = new ServerMembers({ cols: t.cols, clock });
  });

  it('GIVEN a member seen in two servers THEN each server lists them once, under the name they had there', async () => {
    await members.seen(A, { id: MIA, name: 'Mia', joinedAt: JOINED });
    await members.seen(B, { id: MIA, name: 'Mia B.', joinedAt: null });
    await members.seen(B, { id: BEN, name: 'Ben', joinedAt: null });
    expect(await members.members(A)).toEqual(new Map([[MIA, 'Mia']]));
    expect(await members.members(B)).toEqual(
      new Map([
        [MIA, 'Mia B.'],
        [BEN, 'Ben'],
      ]),
    );
    expect(await members.inServer(A, [MIA, BEN])).toEqual(new Set([MIA]));
    expect(await members.joinedAt(A, MIA)).toEqual(JOINED);
    // Without Discord's time, the first time seen there stands for it.
    expect(await members.joinedAt(B, MIA)).toEqual(clock.now());
    expect(await members.joinedAt(A, BEN)).toBeNull();
  });

  it("GIVEN Discord's join time is known WHEN the member is seen later without one THEN the known time stays", async () => {
    await members.seen(A, { id: MIA, name: 'Mia', joinedAt: JOINED });
    clock.advance(86_400_000);
    await new ServerMembers({ cols: t.cols, clock }).seen(A, { id: MIA, name: 'Mia', joinedAt: null });
    const row = await t.cols.serverMembers.findOne({ _id: `${A}:${MIA}` });
    expect(row?.joinedAt).toEqual(JOINED);
    expect(row?.joinedFrom).toBe('discord');
    expect(row?.lastSeenAt).toEqual(clock.now());
    expect(row?.firstSeenAt).toEqual(new Date('2026-03-01T12:00:00Z'));
  });

  it("GIVEN a first-seen time WHEN Discord later sends the member's join time THEN Discord's wins", async () => {
    await members.seen(A, { id: MIA, name: 'Mia', joinedAt: null });
    await members.seen(A, { id: MIA, name: 'Mia', joinedAt: JOINED });
    expect(await members.joinedAt(A, MIA)).toEqual(JOINED);
  });

  it('GIVEN a busy member THEN one write per ten minutes, unless their name changed', async () => {
    await members.seen(A, { id: MIA, name: 'Mia', joinedAt: JOINED });
    await t.cols.serverMembers.deleteMany({});
    clock.advance(60_000);
    await members.seen(A, { id: MIA, name: 'Mia', joinedAt: JOINED });
    expect(await members.joinedAt(A, MIA)).toBeNull();
    await members.seen(A, { id: MIA, name: 'Mia the Great', joinedAt: JOINED });
    expect((await members.members(A)).get(MIA)).toBe('Mia the Great');
    await t.cols.serverMembers.deleteMany({});
    clock.advance(10 * 60_000);
    await members.seen(A, { id: MIA, name: 'Mia the Great', joinedAt: JOINED });
    expect(await members.joinedAt(A, MIA)).toEqual(JOINED);
  });

  it('GIVEN a member whose roles change within ten minutes THEN the new roles are written at once, and a role lists its holders page by page', async () => {
    const R = '900000000000000500';
    await members.seenIn({ guildId: A, user: { id: MIA, name: 'Mia' }, users: {}, roleIds: [R] });
    await members.seenIn({ guildId: A, user: { id: BEN, name: 'Ben' }, users: {}, roleIds: ['1', R] });
    await members.seenIn({ guildId: B, user: { id: BEN, name: 'Ben' }, users: {}, roleIds: [R] });
    expect(await members.withRole(A, R, '', 10)).toEqual([MIA, BEN].sort());
    expect(await members.withRole(A, R, '', 1)).toEqual([MIA, BEN].sort().slice(0, 1));
    expect(await members.withRole(A, R, [MIA, BEN].sort()[0] as string, 10)).toEqual(
      [MIA, BEN].sort().slice(1),
    );
    clock.advance(60_000);
    await members.seenIn({ guildId: A, user: { id: MIA, name: 'Mia' }, users: {}, roleIds: [] });
    expect(await members.withRole(A, R, '', 10)).toEqual([BEN]);
    // Named in another member's option: their roles are not sent, and the known ones stay.
    await members.seen(A, { id: MIA, name: 'Mia', joinedAt: null }, [
      { id: BEN, name: 'Ben', joinedAt: null },
    ]);
    expect(await members.withRole(A, R, '', 10)).toEqual([BEN]);
  });

  it('GIVEN a member named in an option THEN they are in the server, but not seen acting there', async () => {
    await members.seen(A, { id: MIA, name: 'Mia', joinedAt: null }, [
      { id: BEN, name: 'Ben', joinedAt: JOINED },
    ]);
    clock.advance(3_600_000);
    await members.seen(A, { id: MIA, name: 'Mia', joinedAt: null }, [
      { id: BEN, name: 'Ben', joinedAt: JOINED },
    ]);
    const ben = await t.cols.serverMembers.findOne({ _id: `${A}:${BEN}` });
    expect(ben?.joinedAt).toEqual(JOINED);
    expect(ben?.lastSeenAt).toEqual(new Date('2026-03-01T12:00:00Z'));
  });

  it('GIVEN members removed or not seen for long THEN their rows go, in every server', async () => {
    await members.seen(A, { id: MIA, name: 'Mia', joinedAt: null });
    await members.seen(B, { id: MIA, name: 'Mia', joinedAt: null });
    await members.seen(A, { id: BEN, name: 'Ben', joinedAt: null });
    expect(await members.remove([MIA])).toBe(2);
    expect(await members.members(B)).toEqual(new Map());
    clock.advance(40 * 86_400_000);
    await members.seen(B, { id: MIA, name: 'Mia', joinedAt: null });
    expect(await members.removeNotSeenSince(new Date(clock.now().getTime() - 30 * 86_400_000))).toBe(1);
    expect(await members.members(A)).toEqual(new Map());
    expect(await members.members(B)).toEqual(new Map([[MIA, 'Mia']]));
  });
});
