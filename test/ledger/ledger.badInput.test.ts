import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { parsePlacePoints } from '../../utils/money/amounts.js';
import { useTestDatabase } from '../support/database.js';
import { makeLedger } from '../support/ledgerHarness.js';

const t = useTestDatabase('ledger_bad_input');

const valid = { opId: 'op-1', currency: 'cookies', account: 'max', amount: 5, kind: 'test.burn' };

const BAD_INPUTS: [string, Record<string, unknown>, string][] = [
  ['a negative amount', { ...valid, amount: -5 }, 'greater than zero'],
  ['a zero amount', { ...valid, amount: 0 }, 'greater than zero'],
  ['NaN', { ...valid, amount: Number.NaN }, 'amount must be a finite number'],
  ['Infinity', { ...valid, amount: Number.POSITIVE_INFINITY }, 'finite'],
  ['a fractional amount of Cookies', { ...valid, amount: 1.5 }, 'whole number'],
  ['an amount above 2^53', { ...valid, amount: 2 ** 53 + 2 }, '2^53'],
  ['an amount given as text', { ...valid, amount: '5' }, 'amount must be a finite number'],
  ['a missing amount', { ...valid, amount: undefined }, 'amount is required'],
  ['an empty operation id', { ...valid, opId: '' }, 'operation id'],
  ['a missing operation id', { ...valid, opId: undefined }, 'operation id is required'],
  ['an unknown currency', { ...valid, currency: 'gold' }, 'currency must be'],
  ['an empty account', { ...valid, account: '' }, 'account id'],
];

describe('ledger bad input', () => {
  let ledger: ReturnType<typeof makeLedger>;
  beforeAll(() => {
    ledger = makeLedger(t.cols);
  });

  it.each(BAD_INPUTS)('refuses %s with INVALID_INPUT and writes nothing', async (_name, input, message) => {
    for (const call of [
      () => ledger.debit(input as never),
      () => ledger.credit(input as never),
      () => ledger.transfer({ ...input, from: input.account, to: 'other' } as never),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('INVALID_INPUT');
      expect((error as AppError).message).toContain(message);
    }
    expect(await t.cols.cookies.countDocuments()).toBe(0);
    expect(await t.cols.ledgerEvents.countDocuments()).toBe(0);
  });

  it('refuses a transfer to the same account', async () => {
    const error = await ledger
      .transfer({ opId: 'x', currency: 'cookies', from: 'max', to: 'max', amount: 1, kind: 'give' })
      .catch((e: unknown) => e);
    expect((error as AppError).code).toBe('INVALID_INPUT');
    expect(await t.cols.ledgerEvents.countDocuments()).toBe(0);
  });

  it.each([
    ['1.2345', '3 decimals'],
    ['-1', 'not an amount'],
    ['1e3', 'not an amount'],
    ['', 'not an amount'],
    ['12.', 'not an amount'],
    ['99999999999999.9', 'not an amount'],
    // A thousand in English, one point in German: refused rather than guessed.
    ['1,000', 'not an amount'],
    ['1,2,3', 'not an amount'],
  ])('refuses Place points text %j', (text, message) => {
    expect(() => parsePlacePoints(text)).toThrow(message);
  });

  it.each([
    ['0,5', 500],
    ['12,25', 12_250],
    ['12.345', 12_345],
    ['7', 7_000],
  ])('reads Place points text %j written the English or the German way', (text, milli) => {
    expect(parsePlacePoints(text)).toBe(milli);
    expect(parsePlacePoints(text, 'de')).toBe(milli);
  });

  it.each([
    ['0,001', 1],
    ['12,345', 12_345],
    ['1,000', 1_000],
  ])('reads German Place points %j with three decimals after the comma', (text, milli) => {
    expect(parsePlacePoints(text, 'de')).toBe(milli);
  });
});
