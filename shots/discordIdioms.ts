/**
 * Discord's own idioms for `npm run shots`, made by the real commands: a member's context menu
 * (Apps › Give Cookies) and the form it opens, a coinflip with its Again… button and the form
 * that asks the next bet, and the canvas's sign-in link as a Link button.
 */
import type { BotDeps } from '../src/interactions/types.js';
import type { Scene, Server } from './discordStage.js';

/** Runs after the shop's scenes: the buyer is funded and the vault holds a million. */
export async function idiomScenes(_deps: BotDeps, server: Server): Promise<Scene[]> {
  const { buyer, short } = server.cast;
  const giveForm = await server.app(buyer, 'Give Cookies', short);
  const coinflip = await server.command(buyer, ['games', 'coinflip'], { bet: 50, side: 'heads' });
  const again = await server.press(buyer, coinflip, 'games.again');
  const link = await server.command(buyer, ['place', 'web']);
  return [
    { name: 'apps-give-form', title: 'Apps › Give Cookies: the form', exchange: giveForm },
    { name: 'games-coinflip', title: 'a coinflip with Again…', exchange: coinflip },
    { name: 'games-again-form', title: 'Again…: the bet in a form', exchange: again },
    { name: 'place-web-link', title: 'the sign-in link as a Link button', exchange: link },
  ];
}
