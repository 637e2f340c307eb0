import { describe, expect, it } from 'vitest';
import { CONFLICT, ConflictRetriesExhausted, retryOnConflict } from '../../src/db/retryOnConflict.js';

describe('retryOnConflict', () => {
  it('GIVEN a conflict that clears on the third try THEN it returns that try’s value', async () => {
    const seen: number[] = [];
    const value = await retryOnConflict(
      5,
      async (tries) => {
        seen.push(tries);
        return tries < 3 ? CONFLICT : `saved on ${tries}`;
      },
      'the table swap',
    );
    expect(value).toBe('saved on 3');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('GIVEN a conflict that never ends THEN it gives up at the limit, naming what and how many tries', async () => {
    let tries = 0;
    const gaveUp = retryOnConflict(
      4,
      async () => {
        tries += 1;
        return CONFLICT;
      },
      'the fence on account a',
    );
    await expect(gaveUp).rejects.toThrow(ConflictRetriesExhausted);
    await expect(gaveUp).rejects.toMatchObject({
      what: 'the fence on account a',
      attempts: 4,
      message: 'the fence on account a: still in conflict after 4 attempts; gave up',
    });
    expect(tries).toBe(4);
  });

  it('GIVEN a try that fails THEN the failure goes up untouched and nothing is tried again', async () => {
    let tries = 0;
    const failed = retryOnConflict(
      10,
      async () => {
        tries += 1;
        throw new Error('the database went away');
      },
      'the erasure record',
    );
    await expect(failed).rejects.toThrow('the database went away');
    expect(tries).toBe(1);
  });

  it('GIVEN a value that is falsy THEN it is a value, not a conflict', async () => {
    expect(await retryOnConflict(3, async () => null, 'a read')).toBeNull();
    expect(await retryOnConflict(3, async () => 0, 'a count')).toBe(0);
  });
});
