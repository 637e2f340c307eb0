import { z } from 'zod';
import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineCommand, defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { ButtonSpec, CommandContext, CommandModule, Reply } from '../../src/interactions/types.js';
import { NOTIFICATIONS_MESSAGES } from '../../utils/notifications/messages.js';

/** A button sets the state it shows the way to, so a double press sets it once, never back. */
const toggle = defineComponent('notifications.toggle', {
  kind: z.string().regex(/^[a-z]+\.[a-z_]+$/),
  on: z.enum(['on', 'off']),
});

/** Chooses how a reminder comes: the way the button names, so a double press chooses it once. */
const via = defineComponent('notifications.via', {
  kind: z.string().regex(/^[a-z]+\.[a-z_]+$/),
  via: z.enum(['dm', 'mention']),
});

/** What `/notifications` offers: the kinds that may notify a mention, and the reminders the bot sends. */
export interface NotificationKinds {
  notifications: readonly string[];
  reminders: readonly string[];
}

/** The label of a kind `feature.kind`: the feature's text `<feature>:notify.<kind>`. */
function label(ctx: CommandContext, kind: string): string {
  const [feature, name] = kind.split('.');
  return ctx.i18n.t(`${feature}:notify.${name}`);
}

function toggleButton(ctx: CommandContext, kind: string, on: boolean): ButtonSpec {
  return {
    customId: toggle.build({ kind, on: on ? 'off' : 'on' }),
    label: label(ctx, kind),
    emoji: on ? '🔔' : '🔕',
    style: on ? 'success' : 'secondary',
  };
}

/** Each reminder's line: whether it is on, and how it comes. */
function reminderLines(
  ctx: CommandContext,
  kinds: readonly string[],
  on: Set<string>,
  inChannel: Set<string>,
) {
  const { i18n } = ctx;
  if (kinds.length === 0) return [];
  return [
    '',
    i18n.t('notifications:reminders.title'),
    i18n.t('notifications:reminders.intro'),
    ...kinds.map((kind) =>
      i18n.t('notifications:reminders.line', {
        state: i18n.t(on.has(kind) ? 'notifications:notifications.on' : 'notifications:notifications.off'),
        label: label(ctx, kind),
        via: i18n.t(
          inChannel.has(kind) ? 'notifications:reminders.byMention' : 'notifications:reminders.byDm',
        ),
      }),
    ),
  ];
}

/** Every kind with its state, and a button to turn each on or off (and to choose how a reminder comes). */
async function settingsReply(ctx: CommandContext, kinds: NotificationKinds, note?: string): Promise<Reply> {
  const { i18n } = ctx;
  const on = new Set(await ctx.deps.profiles.notifications(ctx.actor.id));
  const inChannel = new Set(
    kinds.reminders.length > 0 ? await ctx.deps.profiles.remindedInChannel(ctx.actor.id) : [],
  );
  const lines = kinds.notifications.map((kind) =>
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
      ...reminderLines(ctx, kinds.reminders, on, inChannel),
      ...(note ? ['', note] : []),
    ].join('\n'),
    buttons: [
      ...kinds.notifications.map((kind) => toggleButton(ctx, kind, on.has(kind))),
      ...kinds.reminders.flatMap((kind): ButtonSpec[] => [
        toggleButton(ctx, kind, on.has(kind)),
        {
          customId: via.build({ kind, via: inChannel.has(kind) ? 'dm' : 'mention' }),
          label: i18n.t(
            inChannel.has(kind) ? 'notifications:reminders.toDm' : 'notifications:reminders.toMention',
            {
              label: label(ctx, kind),
            },
          ),
          emoji: inChannel.has(kind) ? '✉️' : '📣',
          style: 'secondary',
        },
      ]),
    ],
  };
}

/** `/notifications`: what may notify the member, and the reminders they take, from what every feature declares. */
export function notificationsCommand(kinds: NotificationKinds): CommandModule {
  const known = (kind: string) => kinds.notifications.includes(kind) || kinds.reminders.includes(kind);
  const unknown = (ctx: CommandContext, kind: string): Reply => ({
    ephemeral: true,
    content: ctx.i18n.t('notifications:notifications.unknownKind', { kind }),
  });
  return defineCommand({
    ...localized(NOTIFICATIONS_MESSAGES, 'commands.notifications'),
    access: 'everyone',
    category: 'notifications:category',
    handler: { run: (ctx) => settingsReply(ctx, kinds) },
    components: [
      defineComponentHandler(toggle, {
        access: 'everyone',
        async run(ctx, fields) {
          const { kind } = fields;
          if (!known(kind)) return unknown(ctx, kind);
          const on = fields.on === 'on';
          await ctx.deps.profiles.setNotification(ctx.invocation.user, kind, on);
          const note = ctx.i18n.t(
            on ? 'notifications:notifications.turnedOn' : 'notifications:notifications.turnedOff',
            { label: label(ctx, kind) },
          );
          return { ...(await settingsReply(ctx, kinds, note)), update: true };
        },
      }),
      defineComponentHandler(via, {
        access: 'everyone',
        async run(ctx, fields) {
          const { kind } = fields;
          if (!kinds.reminders.includes(kind)) return unknown(ctx, kind);
          await ctx.deps.profiles.setReminderVia(ctx.invocation.user, kind, fields.via);
          const note = ctx.i18n.t(
            fields.via === 'mention'
              ? 'notifications:reminders.nowByMention'
              : 'notifications:reminders.nowByDm',
            { label: label(ctx, kind) },
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
  // The kinds come from every feature (`notifications`, `reminders`), so a new kind is one line in its feature.
  commandsFrom: (features) => [
    notificationsCommand({
      notifications: features.flatMap((f) => (f.notifications ?? []).map((kind) => `${f.name}.${kind}`)),
      reminders: features.flatMap((f) => (f.reminders ?? []).map((kind) => `${f.name}.${kind}`)),
    }),
  ],
};
