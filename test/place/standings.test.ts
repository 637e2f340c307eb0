import { describe, expect, it } from 'vitest';
import { lessened } from '../../utils/place/standings.js';

describe('a ranking with rollbacks taken off', () => {
  it('GIVEN the top size + rolled-back members as stored THEN a griefer falls below everyone they no longer outdo, ties stay by id, and nobody with nothing left is listed', () => {
    const stored = [
      { account: 'bob', value: 10 },
      { account: 'cal', value: 4 },
      { account: 'ann', value: 4 },
      { account: 'dan', value: 3 },
      { account: 'eve', value: 2 },
    ];
    expect(lessened(stored, new Map([['bob', 8]]), 3)).toEqual([
      { account: 'ann', value: 4 },
      { account: 'cal', value: 4 },
      { account: 'dan', value: 3 },
    ]);
    expect(lessened(stored, new Map([['bob', 10]]), 10).map((r) => r.account)).toEqual([
      'ann',
      'cal',
      'dan',
      'eve',
    ]);
  });
});
