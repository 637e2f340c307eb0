import { resolveLocale, type Translator } from '../../src/i18n/i18n.js';
import type { BotDeps } from '../../src/interactions/types.js';
import type { DueReminder } from '../../utils/cookies/collectReminders.js';

/** What became of a reminder (logged with it). */
export type ReminderOutcome = 'dm' | 'mention' | 'mention_dm_closed' | 'dm_no_channel' | 'undelivered';

function reminderText(reminder: DueReminder, i18n: Translator): string {
  return reminder.kind === 'collect_ready'
    ? i18n.t('cookies:reminders.collect_ready')
    : i18n.t('cookies:reminders.streak_risk', {
        count: reminder.streak,
        breaksAtSeconds: Math.floor(reminder.breaksAt.getTime() / 1000),
      });
}

/**
 * Sends a due reminder the way its member chose, in their language: a direct message, or a
 * mention (notifying them alone) in the channel where they collected. When that way is closed
 * for good (their direct messages, a channel the bot may not post in, no channel known) it
 * goes the other way; when both are, it is dropped. A failure that may pass (Discord away)
 * throws, and the task tries again a few times.
 */
export async function deliverReminder(deps: BotDeps, reminder: DueReminder): Promise<ReminderOutcome> {
  const i18n = deps.i18n.for(resolveLocale(reminder.locale));
  const text = reminderText(reminder, i18n);
  if (reminder.via === 'dm') {
    const dm = await directMessage(deps, reminder, text);
    if (dm !== 'closed') return dm;
    const said = `${text}\n${i18n.t('cookies:reminders.dmClosed')}`;
    return (await mention(deps, reminder, said)) === 'mention' ? 'mention_dm_closed' : 'undelivered';
  }
  const posted = await mention(deps, reminder, text);
  if (posted !== 'closed') return posted;
  const dm = await directMessage(deps, reminder, text);
  return dm === 'dm' ? 'dm_no_channel' : 'undelivered';
}

async function directMessage(deps: BotDeps, reminder: DueReminder, text: string): Promise<'dm' | 'closed'> {
  const sent = await deps.poster.dm(reminder.userId, { content: text });
  if (sent === 'failed') throw new Error(`a reminder's direct message to ${reminder.userId} failed`);
  return sent === 'sent' ? 'dm' : 'closed';
}

async function mention(deps: BotDeps, reminder: DueReminder, text: string): Promise<'mention' | 'closed'> {
  if (!reminder.channelId) return 'closed';
  const posted = await deps.poster.postIn(reminder.channelId, {
    content: `<@${reminder.userId}> ${text}`,
    notify: [reminder.userId],
  });
  if (posted.status === 'posted') return 'mention';
  if (posted.status === 'failed' && !posted.lasting)
    throw new Error(`a reminder's post to channel ${reminder.channelId} failed`);
  return 'closed';
}
