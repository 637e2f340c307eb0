import type { Clock } from '../../src/clock.js';
import type { ProfileDirectory } from '../../src/profiles/profileDirectory.js';
import type { ServerMembers } from '../../src/profiles/serverMembers.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { startsAt } from '../../src/runtimeConfig/startDelay.js';
import { stealNewHere, stealNotMemberHere, stealNotStarted, stealProtected } from './errors.js';

/** Where an attempt is made: the server, and the join times Discord sent with the interaction. */
export interface StealPlace {
  guildId: string;
  /** The thief's join time in this server, when Discord sent it. */
  thiefJoinedAt: Date | null;
  /** The victim's, when Discord resolved them as a member of this server. */
  victimJoinedAt: Date | null;
}

interface GateDeps {
  runtimeConfig: RuntimeConfig;
  profiles: Pick<ProfileDirectory, 'firstSeenAt'>;
  serverMembers: Pick<ServerMembers, 'joinedAt'>;
  clock: Clock;
}

/**
 * Who may rob whom, and when, before anything is rolled. In a server: stealing has started there
 * (its start delay after it was switched on has passed), and both members joined this server at
 * least the protection time ago; a victim the bot never saw here is no member here. Without a
 * server (a direct message, a direct call from a tool or a test): the victim's first sight
 * anywhere counts.
 */
export async function checkStealGate(
  deps: GateDeps,
  attempt: { thief: string; victim: string; place?: StealPlace },
  protectionMs: number,
): Promise<void> {
  const now = deps.clock.now().getTime();
  const { place } = attempt;
  if (!place) {
    const firstSeen = await deps.profiles.firstSeenAt(attempt.victim);
    const until = firstSeen ? firstSeen.getTime() + protectionMs : Number.POSITIVE_INFINITY;
    if (until > now) throw stealProtected(attempt.victim, firstSeen ? until : null);
    return;
  }
  const start = await startsAt(deps.runtimeConfig, 'cookies.steal_enabled', place.guildId);
  if (start && start.getTime() > now) throw stealNotStarted(start.getTime());
  const [thiefJoined, victimJoined] = await Promise.all([
    place.thiefJoinedAt ?? deps.serverMembers.joinedAt(place.guildId, attempt.thief),
    place.victimJoinedAt ?? deps.serverMembers.joinedAt(place.guildId, attempt.victim),
  ]);
  if (!victimJoined) throw stealNotMemberHere(attempt.victim);
  // The thief acts here, so the bot has seen them: an unknown join time is today's.
  const thiefUntil = (thiefJoined?.getTime() ?? now) + protectionMs;
  if (thiefUntil > now) throw stealNewHere('thief', attempt.victim, thiefUntil);
  const victimUntil = victimJoined.getTime() + protectionMs;
  if (victimUntil > now) throw stealNewHere('victim', attempt.victim, victimUntil);
}
