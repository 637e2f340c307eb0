import type { BotDeps } from '../../src/interactions/types.js';
import type { EffectName } from '../../utils/shop/effects/registry.js';
import type { ItemFields, ShopItemDoc } from '../../utils/shop/itemStore.js';

/**
 * Puts an item on a server's shelf as a moderator would: a role with `role`, else an item with
 * `effect` (a server's own by default); terms left out have no limit.
 */
export function stockShelf(
  deps: BotDeps,
  where: { guildId: string; actorId: string },
  add: Partial<ItemFields> & { name: string; price: number; role?: string; effect?: EffectName },
): Promise<ShopItemDoc> {
  const { role, effect, ...fields } = add;
  return deps.services.shop.addItem({
    ...where,
    kind: role ? 'role' : 'item',
    effect: role ? null : (effect ?? 'custom'),
    roleId: role ?? null,
    fields: {
      description: '',
      stockLeft: null,
      perMember: null,
      requiredRoleId: null,
      durationH: null,
      ...fields,
    },
  });
}
