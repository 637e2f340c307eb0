/**
 * Discord's own idioms for `npm run shots`, made by the real commands: a member's context menu
 * (Apps › Give Cookies) and the form it opens, a coinflip with its Again… button and the form
 * that asks the next bet, the canvas's sign-in link as a Link button, a poker hand: the board
 * with the buttons of the player to act, each naming its chips, and the raise's form; and a
 * sit-and-go under way and over.
 */
import type { BotDeps } from '../src/interactions/types.js';
import type { Scene, Server } from './discordStage.js';

/** Runs after the shop's scenes: the buyer is funded and the vault holds a million. */
export async function idiomScenes(deps: BotDeps, server: Server): Promise<Scene[]> {
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
    ...(await pokerScenes(deps, server)),
  ];
}

/** Two members sit at a table and start a hand; the one to act sees their buttons, then Raise…'s form. */
async function pokerScenes(deps: BotDeps, server: Server): Promise<Scene[]> {
  const { buyer, moderator } = server.cast;
  await deps.services.cookies.grant({
    opId: `shots.grant.poker:${moderator.id}`,
    adminId: moderator.id,
    to: moderator.id,
    amount: 2_000,
    reason: 'shots',
  });
  const opened = await server.command(buyer, ['poker', 'create'], { small_blind: 10, max_buy_in: 1_000 });
  const seated = await server.press(buyer, opened, 'poker.sit');
  const both = await server.press(moderator, seated, 'poker.sit');
  const dealt = await server.press(buyer, both, 'poker.table');
  const [table] = await deps.services.poker.openTablesOf(buyer.id);
  const seat = table?.game.hand?.toAct;
  const toAct = seat === null || seat === undefined ? buyer : table?.game.seats[seat]?.userId;
  const actor = toAct === moderator.id ? moderator : buyer;
  const raise = await server.press(actor, dealt, 'poker.raise');
  return [
    { name: 'poker-board', title: 'a hand: the buttons of the player to act', exchange: dealt },
    { name: 'poker-raise-form', title: 'Raise…: any amount, its limits told', exchange: raise },
    ...(await tournamentScenes(server)),
  ];
}

/**
 * A sit-and-go of two: both register, the host starts it, and the first hand's board shows the
 * level, the prize pool and when the blinds rise; then one gives up and the board shows the
 * standings and the prize.
 */
async function tournamentScenes(server: Server): Promise<Scene[]> {
  const { buyer, moderator } = server.cast;
  const opened = await server.command(buyer, ['poker', 'tournament'], { buy_in: 250, players: 2 });
  const one = await server.press(buyer, opened, 'poker.sit');
  const full = await server.press(moderator, one, 'poker.sit');
  const dealt = await server.press(buyer, full, 'poker.table');
  const leave = dealt.replies.at(-1)?.buttons?.find((b) => b.customId.endsWith(':leave'))?.customId ?? '';
  const over = await server.press(moderator, dealt, leave);
  return [
    { name: 'poker-tournament', title: 'a sit-and-go: level, blinds, prize pool', exchange: dealt },
    { name: 'poker-tournament-over', title: 'a sit-and-go: the standings and prizes', exchange: over },
  ];
}
