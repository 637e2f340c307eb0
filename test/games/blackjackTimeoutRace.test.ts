import { beforeEach, describe, expect, it } from 'vitest';
import { handReply } from '../../commands/games/blackjack.js';
import { ASSEMBLY } from '../../commands/index.js';
import { I18n } from '../../src/i18n/i18n.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { seedSource } from '../../utils/games/fairness.js';
import { FairnessStore } from '../../utils/games/fairnessStore.js';
import { FINISH_TASK } from '../../utils/games/gameDeps.js';
import { GameService } from '../../utils/games/gameService.js';
import type { BlackjackAction } from '../../utils/games/houseGames/blackjack/rules.js';
import { type RoundDoc, RoundStore } from '../../utils/games/roundStore.js';
import { CookieEconomy } from '../../utils/money/cookieEconomy.js';
import { VaultService } from '../../utils/vault/vaultService.js';
import { fundVaultAndMembers, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { gate } from '../support/pause.js';
import { waitFor, within } from '../support/waitFor.js';

/*
 * The blackjack timer standing a hand at the moment its member presses Hit, Stand or Double:
 * exactly one settlement, the payout made once, and the hand's message says what happened
 * (time ran out and the result, or the member's own ending). The timer runs in another
 * process (its own deps and clock) over the same database.
 */

const t = useTestDatabase('blackjack_timeout_race');
const YOU = '852000000000000001';
const CHANNEL = '862000000000000900';
const MESSAGE = '862000000000000901';
const VAULT = 200_000;
const GRANT = 10_000;
const BET = 50;
const en = new I18n(ASSEMBLY.messages).for('en');
let nextId = 1;

async function setUp() {
  const made = makeBotDeps(t);
  await fundVaultAndMembers(made.deps, VAULT, [YOU], GRANT);
  return made;
}

/** Deals until a hand is still open (not a natural), its message known. */
async function openHand(deps: BotDeps): Promise<RoundDoc> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const round = await deps.services.games.startBlackjack({
      roundId: `r${nextId++}`,
      userId: YOU,
      bet: BET,
      channelId: CHANNEL,
      locale: 'en',
    });
    if (round.status === 'playing' && round.hand?.phase === 'playing') {
      await deps.services.games.rememberMessage(round, MESSAGE);
      return round;
    }
  }
  throw new Error('every hand in 40 deals was a natural');
}

/** A round store whose next `advance` waits at a gate the test opens: a timer slow at its write. */
function slowRounds() {
  const store = new RoundStore(t.db);
  const stopHere = gate();
  let armed = true;
  const advance = store.advance.bind(store);
  store.advance = async (...args: Parameters<RoundStore['advance']>) => {
    if (armed) {
      armed = false;
      await stopHere.stop();
    }
    return advance(...args);
  };
  return { store, reached: stopHere.reached, open: stopHere.open };
}

/** The games' timer in another process, over `rounds`; what it tells is kept in `told`. */
function timerProcess(rounds: RoundStore, told: RoundDoc[]) {
  const { deps, clock } = makeBotDeps(t);
  clock.advance(601_000);
  const economy = new CookieEconomy(deps.ledger);
  const games = new GameService({
    ...deps,
    economy,
    rounds,
    fairness: new FairnessStore(t.db, seedSource(deps.rng)),
    liquidity: VaultService.liquidityReader({ ...deps, db: t.db } as never, economy),
  });
  const [task] = games.tasks(async (round) => {
    told.push(round);
  });
  // As the scheduler does: a run that finds the round still open (a press paying or settling
  // it meanwhile) fails, and is run again until the round has ended.
  return (roundId: string) =>
    waitFor(
      async () => {
        try {
          await (task as NonNullable<typeof task>).run(
            { roundId },
            { id: `${FINISH_TASK}:${roundId}`, dueAt: clock.now(), attempt: 1 },
          );
          return true;
        } catch (error) {
          if (!String(error).includes('after its timer')) throw error;
          return false;
        }
      },
      { what: `the timer to end round ${roundId}` },
    );
}

/** What the hand's message shows for `round` (the board a press or the timer puts there). */
function shown(round: RoundDoc): string {
  return handReply(round, en).embeds?.[0]?.description ?? '';
}

/** Settled once: the member holds grant − stake + payout, the vault the rest, and the books are clean. */
async function expectSettledOnce(deps: BotDeps, roundIds: string[]): Promise<RoundDoc[]> {
  await deps.ledger.flush();
  const rounds = (await Promise.all(roundIds.map((id) => deps.services.games.get(id)))) as RoundDoc[];
  for (const round of rounds) expect(round.status, round._id).toBe('settled');
  const net = rounds.reduce((sum, r) => sum + (r.payout ?? 0) - (r.stake ?? 0), 0);
  // Hands dealt to find open ones that were naturals count too: every settled round of the member.
  const all = await t.db
    .collection<RoundDoc>('games_rounds')
    .find({ userId: YOU, status: 'settled' })
    .toArray();
  const total = all.reduce((sum, r) => sum + (r.payout ?? 0) - (r.stake ?? 0), 0);
  expect(await deps.ledger.balanceOf('cookies', YOU)).toBe(GRANT + total);
  expect(await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId)).toBe(VAULT - total);
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  expect(Number.isFinite(net)).toBe(true);
  return rounds;
}

describe('the blackjack timer against the member’s own press', () => {
  beforeEach(() => clearDatabase(t.db));

  it.each(['hit', 'stand'] as const)(
    'GIVEN the timer about to stand a hand WHEN the member’s %s lands first THEN the hand settles once, and what its message last shows says what happened',
    async (action) => {
      const { deps } = await setUp();
      const hand = await openHand(deps);
      const slow = slowRounds();
      const told: RoundDoc[] = [];
      const timing = timerProcess(slow.store, told)(hand._id);
      await within(slow.reached, 'the timer to reach its write');
      const pressed = await deps.services.games.blackjack(hand._id, YOU, action, hand.step);
      slow.open();
      await within(timing, 'the timer to finish');
      const [ended] = (await expectSettledOnce(deps, [hand._id])) as [RoundDoc];
      // The press was applied: its card is in the hand (a Hit), or it ended the hand (a Stand).
      expect(ended.step).toBeGreaterThan(hand.step);
      if (action === 'hit') expect(ended.hand?.player.length).toBe(3);
      // Told once: by the timer (time ran out, with the result), or by the press that ended it.
      expect(told.length).toBeLessThanOrEqual(1);
      const last = told[0] ?? pressed;
      expect(last.status).toBe('settled');
      expect(shown(last)).toMatch(/You won|A push|You lost|You get back/);
      if (ended.timedOut) expect(shown(last)).toContain('⏱️ Time ran out, so your hand stood at');
      else expect(pressed.status).toBe('settled');
      expect(handReply(last, en).buttons ?? []).toEqual([]);
    },
  );

  it('GIVEN the timer standing a hand WHEN the member’s press arrives just after THEN the press changes nothing and shows the timed-out result', async () => {
    const { deps } = await setUp();
    const hand = await openHand(deps);
    const told: RoundDoc[] = [];
    await timerProcess(new RoundStore(t.db), told)(hand._id);
    const late = await deps.services.games.blackjack(hand._id, YOU, 'hit', hand.step);
    const [ended] = (await expectSettledOnce(deps, [hand._id])) as [RoundDoc];
    expect(ended).toMatchObject({ status: 'settled', timedOut: true });
    expect(ended.hand?.player).toEqual(hand.hand?.player);
    expect(told).toHaveLength(1);
    expect(shown(late)).toContain('⏱️ Time ran out, so your hand stood at');
  });

  it('GIVEN presses and the timer at the same moment on 12 hands, in two processes THEN every hand settles exactly once and is told', async () => {
    const { deps } = await setUp();
    const actions: BlackjackAction[] = ['hit', 'stand', 'double'];
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const hand = await openHand(deps);
      ids.push(hand._id);
      const told: RoundDoc[] = [];
      const [pressed] = await Promise.all([
        deps.services.games
          .blackjack(hand._id, YOU, actions[i % 3] as BlackjackAction, hand.step)
          .catch(() => null),
        timerProcess(new RoundStore(t.db), told)(hand._id),
      ]);
      const ended = (await deps.services.games.get(hand._id)) as RoundDoc;
      expect(ended.status, `${actions[i % 3]} on ${hand._id}`).toBe('settled');
      expect(told.length).toBeLessThanOrEqual(1);
      // Whoever ended it told it: the timer's message says time ran out; a press's own reply has the result.
      if (ended.timedOut) expect(told.map(shown).join('\n')).toContain('⏱️ Time ran out');
      else expect(pressed?.status === 'settled' || told.length === 1).toBe(true);
    }
    await expectSettledOnce(deps, ids);
  });
});
