/**
 * What the features built on Cookies may do inside a steal and a collect, and show on a profile
 * (src/features/hooks.ts): the shop's padlock and streak shield act here, and its items show on
 * the profile card, without the cookies feature knowing the shop.
 */

/** Asked before a steal's roll: whether something of the victim's stops this steal. */
export interface StealGuard {
  /**
   * Uses up what protects `victim` from the steal `stealId` (in the server `guildId`, when in
   * one) and answers true, or answers false when nothing does. Asked again with the same steal
   * (a retried request), it answers as the first time, using up nothing more.
   */
  stop(victim: string, stealId: string, guildId: string | null): Promise<boolean>;
}

/** Asked when a collect finds that exactly one whole day was missed since the last one. */
export interface StreakKeeper {
  /**
   * Uses up what keeps `member`'s streak over the gap after their collect at `lastAt`, and
   * answers true, or false when nothing does. The same gap asked for again answers the same.
   */
  keep(member: string, lastAt: Date, guildId: string | null): Promise<boolean>;
}

/** What a member owns besides Cookies (the shop's items and roles), for their profile. */
export interface Belongings {
  /** By name, with how many of each, most first. */
  of(member: string): Promise<{ name: string; count: number }[]>;
}

declare module '../../src/features/hooks.js' {
  interface FeatureHooks {
    'cookies.steal_guard': StealGuard;
    'cookies.streak_keeper': StreakKeeper;
    'cookies.belongings': Belongings;
  }
}

/** The first guard that stops the steal, if any. */
export async function stealStopped(
  guards: readonly StealGuard[],
  victim: string,
  stealId: string,
  guildId: string | null,
): Promise<boolean> {
  for (const guard of guards) if (await guard.stop(victim, stealId, guildId)) return true;
  return false;
}

/** Whether something keeps the streak over one missed day. */
export async function streakKept(
  keepers: readonly StreakKeeper[],
  member: string,
  lastAt: Date,
  guildId: string | null,
): Promise<boolean> {
  for (const keeper of keepers) if (await keeper.keep(member, lastAt, guildId)) return true;
  return false;
}

/** Everything the member owns, from every feature that keeps belongings. */
export async function belongingsOf(
  sources: readonly Belongings[],
  member: string,
): Promise<{ name: string; count: number }[]> {
  return (await Promise.all(sources.map((source) => source.of(member)))).flat();
}
