import { AppError, type ErrorMessages } from '../../src/errors.js';
import type { RoleRefusal } from '../../src/roles/memberRoles.js';

declare module '../../src/errors.js' {
  interface ErrorCodeRegistry {
    SHOP_ITEM_UNKNOWN: true;
    SHOP_SOLD_OUT: true;
    SHOP_LIMIT_REACHED: true;
    SHOP_ROLE_REQUIRED: true;
    SHOP_ROLE_HELD: true;
    SHOP_ROLE_REFUSED: true;
    SHOP_FULL: true;
    SHOP_NAME_TAKEN: true;
    SHOP_SERVER_ONLY: true;
    ITEM_NOT_FREE: true;
    ITEM_ACTS_BY_ITSELF: true;
    SELL_BACK_CLOSED: true;
  }
}

type ShopErrorCode =
  | 'SHOP_ITEM_UNKNOWN'
  | 'SHOP_SOLD_OUT'
  | 'SHOP_LIMIT_REACHED'
  | 'SHOP_ROLE_REQUIRED'
  | 'SHOP_ROLE_HELD'
  | 'SHOP_ROLE_REFUSED'
  | 'SHOP_FULL'
  | 'SHOP_NAME_TAKEN'
  | 'SHOP_SERVER_ONLY'
  | 'ITEM_NOT_FREE'
  | 'ITEM_ACTS_BY_ITSELF'
  | 'SELL_BACK_CLOSED';

export const shopErrors = {
  unknownItem: (name: string) => new AppError('SHOP_ITEM_UNKNOWN', `no item ${name} in this shop`, { name }),
  soldOut: (name: string) => new AppError('SHOP_SOLD_OUT', `${name} is sold out`, { name }),
  limitReached: (name: string, limit: number) =>
    new AppError('SHOP_LIMIT_REACHED', `${name}: at most ${limit} per member`, { name, limit }),
  roleRequired: (name: string, roleId: string) =>
    new AppError('SHOP_ROLE_REQUIRED', `${name} needs role ${roleId}`, { name, roleId }),
  roleHeld: (name: string, roleId: string) =>
    new AppError('SHOP_ROLE_HELD', `already holds role ${roleId}`, { name, roleId }),
  roleRefused: (reason: RoleRefusal, roleId: string) =>
    new AppError('SHOP_ROLE_REFUSED', `Discord refused role ${roleId}: ${reason}`, { reason, roleId }),
  full: (max: number) => new AppError('SHOP_FULL', `the shop holds at most ${max} items`, { max }),
  nameTaken: (name: string) => new AppError('SHOP_NAME_TAKEN', `an item named ${name} exists`, { name }),
  serverOnly: () => new AppError('SHOP_SERVER_ONLY', 'a shop belongs to a server', {}),
  notFree: (name: string, why: 'in_trade' | 'not_yours' | 'role') =>
    new AppError('ITEM_NOT_FREE', `${name} is not free to move: ${why}`, { name, why }),
  actsByItself: (name: string, effect: string) =>
    new AppError('ITEM_ACTS_BY_ITSELF', `${name} acts by itself`, { name, effect }),
  sellBackClosed: () => new AppError('SELL_BACK_CLOSED', 'the shop buys nothing back here', {}),
};

export const SHOP_ERROR_MESSAGES: ErrorMessages<ShopErrorCode> = {
  SHOP_ITEM_UNKNOWN: (c, _, i18n) => i18n.t('shop:errors.SHOP_ITEM_UNKNOWN', { name: String(c.name) }),
  SHOP_SOLD_OUT: (c, _, i18n) => i18n.t('shop:errors.SHOP_SOLD_OUT', { name: String(c.name) }),
  SHOP_LIMIT_REACHED: (c, _, i18n) =>
    i18n.t('shop:errors.SHOP_LIMIT_REACHED', { name: String(c.name), count: Number(c.limit) }),
  SHOP_ROLE_REQUIRED: (c, _, i18n) =>
    i18n.t('shop:errors.SHOP_ROLE_REQUIRED', { name: String(c.name), role: String(c.roleId) }),
  SHOP_ROLE_HELD: (c, _, i18n) =>
    i18n.t('shop:errors.SHOP_ROLE_HELD', { name: String(c.name), role: String(c.roleId) }),
  SHOP_ROLE_REFUSED: (c, _, i18n) =>
    i18n.t(`shop:errors.roleRefused.${String(c.reason)}`, { role: String(c.roleId) }),
  SHOP_FULL: (c, _, i18n) => i18n.t('shop:errors.SHOP_FULL', { count: Number(c.max) }),
  SHOP_NAME_TAKEN: (c, _, i18n) => i18n.t('shop:errors.SHOP_NAME_TAKEN', { name: String(c.name) }),
  SHOP_SERVER_ONLY: (_c, _, i18n) => i18n.t('shop:errors.SHOP_SERVER_ONLY'),
  ITEM_NOT_FREE: (c, _, i18n) => i18n.t(`shop:errors.notFree.${String(c.why)}`, { name: String(c.name) }),
  ITEM_ACTS_BY_ITSELF: (c, _, i18n) =>
    i18n.t('shop:errors.ITEM_ACTS_BY_ITSELF', {
      name: String(c.name),
      how: i18n.t(`shop:effects.${String(c.effect)}.how`),
    }),
  SELL_BACK_CLOSED: (_c, _, i18n) => i18n.t('shop:errors.SELL_BACK_CLOSED'),
};
