import { z } from 'zod';
import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineCommand, defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { CommandContext, CommandModule, Reply } from '../../src/interactions/types.js';
import { NOTIFICATIONS_MESSAGES } from '../../utils/notifications/messages.js';

/** A button sets the state it shows the way to, so a double press sets it once, never back. */
const toggle = defineComponent('notifications.toggle', {
  kind: z.string().regex(/^[a-z]+\.[a-z_]+$/),
  on: z.enum(['on', 'off']),
});

/** The label of a kind `feature.kind`: the feature's text `<feature>:notify.<kind>`. */
function label(ctx: CommandContext, kind: string): string {
  const [feature, name] = kind.split('.');
  return ctx.i18n.t(`${feature}:notify.${name}`);
}

/** Every kind with its state, and a button to turn each on or off. */
async function settingsReply(ctx: CommandContext, kinds: readonly string[], note?: string): Promise<Reply> {
  const { i18n } = ctx;
  const on = new Set(await ctx.deps.profiles.notifications(ctx.actor.id));
  const lines = kinds.map((kind) =>
    i18n.t('notifications:notifications.line', {
      state: i18n.t(on.has(kind) ? 'notifications:notifications.on' : 'notifications:notifications.off'),
      label: label(ctx, kind),
    }),
  );
  return {
    ephemeral: true,
    content: [
      i18n.t('notifications:notifications.title'),
      i18n.t('notifications:notifications.intro'),
      '',
      ...lines,
      ...(note ? ['', note] : []),
    ].join('\n'),
    buttons: kinds.map((kind) => ({
      customId: toggle.build({ kind, on: on.has(kind) ? 'off' : 'on' }),
      label: label(ctx, kind),
      emoji: on.has(kind) ? '🔔' : '🔕',
      style: on.has(kind) ? 'success' : 'secondary',
    })),
  };
}

/** `/notifications`: what may notify the member, from the kinds every feature declares. */
export function notificationsCommand(kinds: readonly string[]): CommandModule {
  return defineCommand({
    ...localized(NOTIFICATIONS_MESSAGES, 'commands.notifications'),
    access: 'everyone',
    category: 'notifications:category',
    handler: { run: (ctx) => settingsReply(ctx, kinds) },
    components: [
      defineComponentHandler(toggle, {
        access: 'everyone',
        async run(ctx, fields) {
          const { i18n } = ctx;
          const { kind } = fields;
          if (!kinds.includes(kind))
            return { ephemeral: true, content: i18n.t('notifications:notifications.unknownKind', { kind }) };
          const on = fields.on === 'on';
          await ctx.deps.profiles.setNotification(ctx.invocation.user, kind, on);
          const note = i18n.t(
            on ? 'notifications:notifications.turnedOn' : 'notifications:notifications.turnedOff',
            {
              label: label(ctx, kind),
            },
          );
          return { ...(await settingsReply(ctx, kinds, note)), update: true };
        },
      }),
    ],
  });
}

export const notificationsFeature: Feature = {
  name: 'notifications',
  messages: NOTIFICATIONS_MESSAGES,
  // The kinds come from every feature (`notifications`), so a new kind is one line in its feature.
  commandsFrom: (features) => [
    notificationsCommand(features.flatMap((f) => (f.notifications ?? []).map((kind) => `${f.name}.${kind}`))),
  ],
};
