import { MAX_SEATS } from './engine.js';
import { levelBlinds } from './sitAndGo.js';
import type { TableDoc, TableRequest } from './tableStore.js';

/** What a new table takes from the settings, already checked against each other. */
export interface TableSettings {
  smallBlind: number;
  minBuyIn: number;
  maxBuyIn: number;
  rakePct: number;
  rakeCap: number;
  /** SHA-256 of the first hand's server seed, shown before it is dealt. */
  nextSeedHash: string;
}

/**
 * A table as it opens, pure: empty seats, no hand, nothing bought in. A tournament takes its
 * first level's blinds, one buy-in for everyone, and no rake (its pool is all prizes).
 */
export function newTable(request: TableRequest, now: Date, settings: TableSettings): TableDoc {
  const sng = request.sng;
  const blinds = sng ? levelBlinds(sng, 0) : { small: settings.smallBlind, big: settings.smallBlind * 2 };
  return {
    _id: request.tableId,
    hostId: request.hostId,
    channelId: request.channelId,
    guildId: request.guildId ?? null,
    messageId: null,
    locale: request.locale,
    status: 'open',
    game: {
      seats: Array.from({ length: MAX_SEATS }, () => null),
      button: -1,
      smallBlind: blinds.small,
      bigBlind: blinds.big,
      rakePct: sng ? 0 : settings.rakePct,
      rakeCap: settings.rakeCap,
      hand: null,
      handsPlayed: 0,
    },
    minBuyIn: sng ? sng.buyIn : settings.minBuyIn,
    maxBuyIn: sng ? sng.buyIn : settings.maxBuyIn,
    ...(sng ? { sng: { ...sng, out: [], issued: 0, retired: 0 } } : {}),
    version: 0,
    step: 0,
    pending: [],
    chips: { in: 0, out: 0, rake: 0 },
    sittings: Array.from({ length: MAX_SEATS }, () => 0),
    createdAt: now,
    lastActionAt: now,
    stepAt: now,
    nextSeedHash: settings.nextSeedHash,
  };
}
