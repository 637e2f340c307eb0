import { z } from 'zod';
import { invalidInput } from '../../../src/errors.js';
import { positiveAmount } from '../amounts.js';
import { MAX_BALANCE } from './books.js';
import type { OperationSpec, OperationType } from './documents.js';

const opId = z
  .string({ error: 'operation id is required' })
  .regex(/^[\x21-\x7e]{1,200}$/, 'operation id must be 1-200 visible ASCII characters');
const accountId = z
  .string({ error: 'account id is required' })
  .regex(/^[\x21-\x7e]{1,64}$/, 'account id must be 1-64 visible ASCII characters');
const kind = z
  .string({ error: 'kind is required' })
  .regex(/^[a-z][a-z0-9_.:-]{0,63}$/, 'kind must be a lower-case name like "cookies.collect"');
const currency = z.enum(['cookies', 'place'], { error: 'currency must be "cookies" or "place"' });

const common = {
  opId,
  amount: positiveAmount.refine(
    (n) => n <= MAX_BALANCE,
    `amount must be at most ${MAX_BALANCE} (the largest balance an account may hold)`,
  ),
  kind,
  reason: z.string().max(300, 'reason is at most 300 characters').default(''),
  source: accountId.optional(),
};

export const debitInput = z.object({
  ...common,
  currency,
  account: accountId,
  placements: z.number().int().min(0).max(1_000_000).default(0),
});
export const creditInput = z.object({ ...common, currency, account: accountId });
export const transferInput = z
  .object({ ...common, currency, from: accountId, to: accountId })
  .refine((t) => t.from !== t.to, { message: 'a transfer needs two different accounts', path: ['to'] });

export type DebitInput = z.input<typeof debitInput>;
export type CreditInput = z.input<typeof creditInput>;
export type TransferInput = z.input<typeof transferInput>;

/** Parses ledger input at the edge; a bad value throws INVALID_INPUT and nothing is written. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'input';
    throw invalidInput(`${field}: ${issue?.message ?? 'invalid'}`, { field });
  }
  return parsed.data;
}

export function buildSpec(
  type: OperationType,
  fields: Omit<OperationSpec, 'type' | 'source' | 'placements' | 'keepAtLeast'> &
    Partial<Pick<OperationSpec, 'source' | 'placements' | 'keepAtLeast'>>,
): OperationSpec {
  return {
    opId: fields.opId,
    type,
    currency: fields.currency,
    from: fields.from,
    to: fields.to,
    amount: fields.amount,
    kind: fields.kind,
    reason: fields.reason,
    source: fields.source ?? fields.from ?? fields.to ?? 'system',
    placements: fields.placements ?? 0,
    keepAtLeast: fields.keepAtLeast ?? 0,
  };
}

const storedSpec = z.object({
  opId: z.string(),
  type: z.enum(['debit', 'credit', 'transfer']),
  currency,
  from: z.string().nullable(),
  to: z.string().nullable(),
  amount: z.number(),
  kind: z.string(),
  reason: z.string(),
  source: z.string(),
  placements: z.number(),
  keepAtLeast: z.number(),
});

/** A spec as a marker stores it. */
export function encodeSpec(spec: OperationSpec): string {
  return JSON.stringify(spec);
}

/** A marker's spec, validated: JSON as `encodeSpec` writes it (migrations 002 and 008 rewrote older markers so). */
export function decodeSpec(stored: string): OperationSpec {
  return storedSpec.parse(JSON.parse(stored));
}

/** What makes two calls "the same operation": a reused id with another fingerprint is refused. */
export function fingerprint(spec: OperationSpec): string {
  return [
    spec.type,
    spec.currency,
    spec.from ?? '-',
    spec.to ?? '-',
    spec.amount,
    spec.placements,
    spec.kind,
  ].join('|');
}
