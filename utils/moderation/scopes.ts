import type { SanctionScope } from '../../src/interactions/types.js';

declare module '../../src/interactions/types.js' {
  interface SanctionScopes {
    painting: true;
    games: true;
    economy: true;
  }
}

/** Every scope a moderator may ban a member from, in the order menus and lists show them. */
export const SCOPES = ['painting', 'games', 'economy'] as const satisfies readonly SanctionScope[];

/**
 * The bans that refuse an action of `scope`: its own, and an economy ban, which covers everything
 * that moves Cookies or Place points (painting and games included).
 */
export function coveringScopes(scope: SanctionScope): SanctionScope[] {
  return scope === 'economy' ? ['economy'] : [scope, 'economy'];
}

/** The longest ban a moderator who is not an admin may give; a longer or permanent one needs an admin. */
export const MODERATOR_MAX_MS = 7 * 86_400_000;

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30m`, `6h`, `7d`, `2w` in milliseconds; null when the text is none of these. */
export function parseBanLength(text: string): number | null {
  const match = /^(\d{1,5})\s*(m|h|d|w)$/i.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * (UNITS[(match[2] as string).toLowerCase()] as number);
  return ms > 0 ? ms : null;
}

/** Whether a ban is over at `now`: its end is exclusive (a ban until 12:00 lets the member act at 12:00). */
export function isOver(until: Date | null, now: Date): boolean {
  return until !== null && until.getTime() <= now.getTime();
}

/** Whether an end lies later than another (null, permanent, is the latest). */
export function endsLater(a: Date | null, b: Date | null): boolean {
  if (a === null) return b !== null;
  return b !== null && a.getTime() > b.getTime();
}
