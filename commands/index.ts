import { type Assembly, assembleFeatures } from '../src/features/assemble.js';
import type { Feature } from '../src/features/feature.js';
import type { CommandModule } from '../src/interactions/types.js';
import { moneyLayer } from '../utils/money/moneyLayer.js';
import { adminFeature } from './admin/index.js';
import { cookiesFeature } from './cookies/index.js';
import { gamesFeature } from './games/index.js';
import { helpFeature } from './help/index.js';
import { huntFeature } from './hunt/index.js';
import { moderationFeature } from './moderation/index.js';
import { notificationsFeature } from './notifications/index.js';
import { placeFeature } from './place/index.js';
import { pokerFeature } from './poker/index.js';
import { privacyFeature } from './privacy/index.js';
import { shopFeature } from './shop/index.js';
import { vaultFeature } from './vault/index.js';
import { webFeature } from './web/index.js';

/**
 * The registry: every feature of the bot, in the order /help lists them. A new feature is
 * its two folders (`commands/<name>/`, `utils/<name>/`) and one line here.
 */
export const FEATURES: readonly Feature[] = [
  helpFeature,
  cookiesFeature,
  gamesFeature,
  vaultFeature,
  shopFeature,
  pokerFeature,
  placeFeature,
  huntFeature,
  webFeature,
  privacyFeature,
  notificationsFeature,
  moderationFeature,
  adminFeature,
];

/** The features with the money layer beneath them (its texts, error codes and checks) first. */
export const ASSEMBLY: Assembly = assembleFeatures([moneyLayer, ...FEATURES]);

export const COMMANDS: readonly CommandModule[] = ASSEMBLY.commands;
