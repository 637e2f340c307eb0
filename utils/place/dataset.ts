import { createHmac } from 'node:crypto';
import { isPseudonym } from '../../src/privacy/pseudonym.js';
import { PALETTE } from './palette.js';
import type { PixelEventDoc } from './pixelHistoryStore.js';

/*
 * The canvas's history as a dataset anyone may study, as r/place published its own: one row per
 * change of a pixel, in order, with the painter as a pseudonym. Replaying the rows in order
 * gives the canvas as it stands.
 */

export const DATASET_COLUMNS = ['time', 'x', 'y', 'color', 'painter', 'kind'] as const;

/**
 * A painter as the dataset names them: the same 16 hex digits for every pixel of theirs, made
 * with a key kept by the bot, so the rows cannot be traced back to a Discord id without it. A
 * member forgotten on request has no painter at all: their pixels stay, nobody's.
 */
export function datasetPainter(key: string, owner: string | null): string {
  if (owner === null || isPseudonym(owner)) return '';
  return createHmac('sha256', key).update(owner).digest('hex').slice(0, 16);
}

/** One row: UTC time, x, y, colour (hex), painter, and `placement` or `rollback` (a moderator put a pixel back). */
export function datasetRow(key: string, event: PixelEventDoc): string[] {
  return [
    event.at.toISOString(),
    String(event.x),
    String(event.y),
    PALETTE[event.color]?.hex ?? '',
    datasetPainter(key, event.owner),
    event.kind === 'rollback' ? 'rollback' : 'placement',
  ];
}

/** Every row of the canvas's history, in revision order. */
export async function* datasetRows(
  key: string,
  events: AsyncIterable<PixelEventDoc>,
): AsyncIterable<string[]> {
  for await (const event of events) yield datasetRow(key, event);
}
