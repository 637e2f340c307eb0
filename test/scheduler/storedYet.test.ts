import { describe, expect, it } from 'vitest';
import { storedYet } from '../../src/scheduler/scheduler.js';

const run = (attempt: number) => ({ id: 't', dueAt: new Date(0), attempt });

describe('a task planned before what it finishes is stored', () => {
  it('GIVEN its state not stored yet THEN the first runs fail (to come back on the back-off), a later one lets go; GIVEN it stored THEN it goes on', () => {
    for (const attempt of [1, 2, 3])
      expect(() => storedYet(run(attempt), false, 'trade t1')).toThrow('trade t1 is not stored yet');
    expect(storedYet(run(4), false, 'trade t1')).toBe(false);
    expect(storedYet(run(1), true, 'trade t1')).toBe(true);
  });
});
