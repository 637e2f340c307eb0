import type { CommandModule } from '../src/interactions/types.js';
import { adminCommand } from './admin.js';
import { cookiesCommand } from './cookies.js';
import { helpCommand } from './help.js';

/** Every slash command of the bot, in the order /help lists them. */
export const COMMANDS: readonly CommandModule[] = [helpCommand, cookiesCommand, adminCommand];
