import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cancelButton, giveButton } from '../../commands/cookies/give.js';
import { isAppError } from '../../src/errors.js';
import { defineComponent, MAX_CUSTOM_ID_LENGTH } from '../../src/interactions/componentIds.js';

const sample = defineComponent('poker.seat', {
  table: z.string().regex(/^[a-z0-9]{1,12}$/),
  seat: z.coerce.number().int().min(0).max(9),
  note: z.string().max(20),
});

describe('component ids', () => {
  it('round-trips typed fields, escaping the separator', () => {
    const id = sample.build({ table: 'red7', seat: 3, note: 'a:b%c' });
    expect(id).toBe('poker.seat:red7:3:a%3Ab%25c');
    expect(sample.parse(id)).toEqual({ table: 'red7', seat: 3, note: 'a:b%c' });
  });

  it.each([
    ['another family', 'cookies.give:123'],
    ['a missing field', 'poker.seat:red7:3'],
    ['an extra field', 'poker.seat:red7:3:x:y'],
    ['a field that fails its schema', 'poker.seat:red7:12:x'],
    ['broken escaping', 'poker.seat:red7:3:%E0%A4%A'],
    ['the format of an older version', 'cookies:give:800000000000000002:800000000000000003:20'],
  ])('refuses %s as a stale control', (_, id) => {
    let error: unknown = null;
    try {
      sample.parse(id);
    } catch (e) {
      error = e;
    }
    expect(isAppError(error, 'STALE_CONTROL')).toBe(true);
  });

  it("refuses to build an id longer than Discord's 100 characters", () => {
    const long = defineComponent('test.long', { text: z.string() });
    expect(() => long.build({ text: 'x'.repeat(MAX_CUSTOM_ID_LENGTH) })).toThrow(/exceeds Discord's 100/);
    expect(() => sample.build({ table: 'NOT VALID', seat: 3, note: '' })).toThrow(/cannot build an id/);
  });

  it('keeps the Give prompt buttons under the limit with the longest prompt id their schema allows', () => {
    const prompt = '9'.repeat(40);
    for (const id of [giveButton.build({ prompt }), cancelButton.build({ prompt })]) {
      expect(id.length).toBeLessThanOrEqual(MAX_CUSTOM_ID_LENGTH);
    }
    expect(() => giveButton.build({ prompt: '9'.repeat(41) })).toThrow();
  });
});
