import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { SNOWFLAKE_PATTERN } from '../../src/snowflake.js';
import type { AreaDoc } from '../../utils/place/areaStore.js';
import { MAX_AREA_NAME } from '../../utils/place/areas.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { roleOf } from '../../utils/place/moderationLogStore.js';
import { parseOptions } from '../options.js';
import { parseArea } from './placeRollback.js';

const nameOption = {
  type: ApplicationCommandOptionType.String,
  ...localized(PLACE_MESSAGES, 'admin.commands.placeAreaName'),
  required: true,
  max_length: MAX_AREA_NAME,
} as const;

/** A role's id, as Discord sends a role option (or a typed `<@&id>` in the console). */
const roleId = z
  .string()
  .transform((text) => text.replace(/^<@&(\d+)>$/, '$1'))
  .pipe(z.string().regex(SNOWFLAKE_PATTERN));

/** The area's name and rectangle (`where`), and who may paint there (`who`), for a text. */
function describe(area: AreaDoc, i18n: Translator) {
  const { name, x1, y1, x2, y2 } = area;
  return {
    where: i18n.t('place:areas.where', { name, x1, y1, x2, y2 }),
    who: area.roleId ? i18n.t('place:areas.whoRole', { role: area.roleId }) : i18n.t('place:areas.who'),
  };
}

/** `/admin place protect name area [role]`: only moderators (and the role's members) paint inside; audited. */
export const placeProtect: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'admin.commands.placeProtect'),
    options: [
      nameOption,
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeProtectArea'),
        required: true,
        max_length: 30,
      },
      {
        type: ApplicationCommandOptionType.Role,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeProtectRole'),
      },
    ],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const { name, area, role } = parseOptions(
      z.object({ name: z.string().max(MAX_AREA_NAME), area: z.string(), role: roleId.optional() }),
      invocation,
    );
    const { x0, y0, x1, y1 } = parseArea(area);
    const created = await deps.services.place.areas.protect({
      id: invocation.id,
      name,
      x1: x0,
      y1: y0,
      x2: x1,
      y2: y1,
      roleId: role ?? null,
      by: actor.id,
      role: roleOf(actor),
    });
    await deps.services.admin.record({
      id: `place.protect:${invocation.id}`,
      kind: 'place.protect',
      actorId: actor.id,
      text: serverI18n.t('place:admin.audit.placeProtected', {
        actor: actor.id,
        ...describe(created, serverI18n),
      }),
    });
    return { ephemeral: true, content: i18n.t('place:areas.protected', describe(created, i18n)) };
  },
};

/** `/admin place unprotect name`: anyone may paint there again; audited. */
export const placeUnprotect: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'admin.commands.placeUnprotect'),
    options: [nameOption],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const { name } = parseOptions(z.object({ name: z.string().max(MAX_AREA_NAME) }), invocation);
    const removed = await deps.services.place.areas.unprotect(name, roleOf(actor));
    await deps.services.admin.record({
      id: `place.unprotect:${invocation.id}`,
      kind: 'place.unprotect',
      actorId: actor.id,
      text: serverI18n.t('place:admin.audit.placeUnprotected', {
        actor: actor.id,
        ...describe(removed, serverI18n),
      }),
    });
    return { ephemeral: true, content: i18n.t('place:areas.unprotected', describe(removed, i18n)) };
  },
};

/** `/admin place protected`: every protected area, for moderators too. */
export const placeProtected: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'admin.commands.placeProtected'),
  },
  async run({ deps, i18n }) {
    const areas = await deps.services.place.areas.list();
    if (areas.length === 0) return { ephemeral: true, content: i18n.t('place:areas.none') };
    // Discord caps a message at 2,000 characters: the oldest areas that fit, then how many more.
    let content = i18n.t('place:areas.list', { count: areas.length });
    let shown = 0;
    for (const area of areas) {
      const line = `\n• ${i18n.t('place:areas.line', describe(area, i18n))}`;
      if (content.length + line.length > 1_850) break;
      content += line;
      shown++;
    }
    if (shown < areas.length) content += `\n${i18n.t('place:areas.more', { count: areas.length - shown })}`;
    return { ephemeral: true, content };
  },
};
