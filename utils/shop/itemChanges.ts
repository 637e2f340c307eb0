import type { Translator } from '../../src/i18n/i18n.js';
import type { ShopItemDoc } from './itemStore.js';

const FIELDS = [
  'name',
  'description',
  'price',
  'stockLeft',
  'perMember',
  'durationH',
  'requiredRoleId',
] as const;

/**
 * "price 300 → 250", one per field that changed, in the reader's words: what a moderator's edit
 * did, for their reply and the audit line, on Discord and on the portal alike.
 */
export function describeChanges(before: ShopItemDoc, after: ShopItemDoc, i18n: Translator): string[] {
  const show = (field: (typeof FIELDS)[number], value: unknown) =>
    value === null || value === ''
      ? i18n.t('shop:moderation.none')
      : field === 'price'
        ? i18n.cookies(Number(value))
        : field === 'requiredRoleId'
          ? `<@&${String(value)}>`
          : typeof value === 'number'
            ? i18n.number(value)
            : String(value);
  return FIELDS.filter((field) => before[field] !== after[field]).map((field) =>
    i18n.t('shop:moderation.change', {
      field: i18n.t(`shop:moderation.fields.${field}`),
      before: show(field, before[field]),
      after: show(field, after[field]),
    }),
  );
}
