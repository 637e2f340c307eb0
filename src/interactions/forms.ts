import { invalidInputText } from '../errors.js';
import type { Invocation, TextInputSpec } from './types.js';

/** The longest whole amount a member types: the digits of the largest balance, with its separators. */
const AMOUNT_TEXT_MAX = 24;

/** One box for a whole amount (Cookies, chips): `placeholder` tells the limits that matter. */
export function amountInput(
  customId: string,
  label: string,
  placeholder: string,
  value?: string,
): TextInputSpec {
  return {
    customId,
    label,
    style: 'short',
    placeholder,
    required: true,
    minLength: 1,
    maxLength: AMOUNT_TEXT_MAX,
    ...(value !== undefined ? { value } : {}),
  };
}

/**
 * A whole amount as a member types it into a form's box: digits, grouped by threes with a
 * point, a comma, a space or an apostrophe as they write it (`1.000`, `1,000`, `1 000` are all a
 * thousand: a whole amount has no decimals to confuse them with). Anything else is refused with
 * what was typed; the range is the handler's to check, with its own numbers.
 */
export function formAmount(invocation: Invocation, box: string): number {
  const typed = (invocation.fields?.[box] ?? '').trim();
  const digits = /^\d{1,3}(?:[.,\u00a0\u202f' ]\d{3})+$/.test(typed) ? typed.replace(/\D/g, '') : typed;
  if (!/^\d{1,16}$/.test(digits))
    throw invalidInputText(`form box "${box}": "${typed}" is not a whole amount`, 'core:errors.formAmount', {
      typed,
    });
  return Number(digits);
}
