import { beforeEach, describe, expect, it } from 'vitest';
import { TABLES, type TableDoc, TableStore } from '../../utils/poker/tableStore.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

/*
 * Which tables the day's check reads (the simulation's checkpoint): every table that can
 * still be wrong today, never the closed history that grows with every game.
 */
const t = useTestDatabase('poker_tables_since');
const SINCE = new Date('2026-03-02T00:00:00Z');
const BEFORE = new Date('2026-02-20T00:00:00Z');

function table(
  id: string,
  status: TableDoc['status'],
  extra: Partial<Record<keyof TableDoc, unknown>> = {},
): Record<string, unknown> {
  return { _id: id, status, createdAt: BEFORE, lastActionAt: BEFORE, ...extra };
}

describe('the poker tables a check from a checkpoint reads', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    await TableStore.ensureIndexes(t.db);
  });

  it('GIVEN tables open, playing, closed long ago, closed since, and closed long ago with a Cookie operation in flight THEN it reads all but the one closed long ago and settled, each once', async () => {
    await t.db
      .collection<Record<string, unknown>>(TABLES)
      .insertMany([
        table('open', 'open'),
        table('playing', 'playing', { pending: [{ op: 'poker_buyin:playing:0:1' }] }),
        table('old', 'closed', { closedAt: BEFORE }),
        table('before-closedAt', 'closed'),
        table('today', 'closed', { closedAt: new Date(SINCE.getTime() + 60_000) }),
        table('stuck', 'closed', { closedAt: BEFORE, pending: [{ op: 'poker_cashout:stuck:1:1' }] }),
      ]);
    const store = new TableStore(t.db);
    const ids = async (since?: Date) => {
      const found: string[] = [];
      for await (const x of store.all(since)) found.push(x._id);
      return found.sort();
    };
    expect(await ids(SINCE)).toEqual(['open', 'playing', 'stuck', 'today']);
    expect(await ids()).toEqual(['before-closedAt', 'old', 'open', 'playing', 'stuck', 'today']);
  });
});
