import type { Shot } from './shot.js';

/** Placeholder until this part of `npm run shots` lands; returns no shots. */
export async function renderWebShots(_outDir: string): Promise<Shot[]> {
  return [];
}
