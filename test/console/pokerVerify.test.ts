import { beforeAll, describe, expect, it } from 'vitest';
import { cardText } from '../../commands/poker/board.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { makeConsole } from '../support/consoleHarness.js';
import { useTestDatabase } from '../support/database.js';

const t = useTestDatabase('console_poker_verify');

/** A member checks a poker hand with `/poker verify`, as they type it. */
describe('/poker verify', () => {
  let c: ReturnType<typeof makeConsole>;
  let table: TableDoc;

  beforeAll(async () => {
    c = makeConsole(t);
    for (const who of ['vera', 'viktor']) {
      await c.session.run(`as admin /admin cookies grant user:${who} amount:1000 reason:poker`);
    }
    await c.session.run('as vera /poker create small_blind:5 max_buy_in:400');
    await c.session.run('as vera /poker join buyin:200');
    await c.session.run('as viktor /poker seed value:viktors-seed');
    await c.session.run('as viktor /poker join buyin:200');
    const poker = c.deps.services.poker;
    const id = (await t.db.collection<TableDoc>('poker_tables').findOne({}))?._id as string;
    table = await poker.start(id, c.identities.get('vera').id);
    c.take();
  });

  it('GIVEN the hand in play THEN it refuses to reveal its seed and says so', async () => {
    await c.session.run(`as viktor /poker verify hand:${table._id}#1`);
    const printed = c.take();
    expect(printed).toContain('[ephemeral]');
    expect(printed).toContain(
      `Hand ${table._id}#1 is still being played: its seed is revealed once it has ended.`,
    );
  });

  it('GIVEN the hand ended THEN it recomputes the deck from the revealed seeds: the cards dealt and the commitment', async () => {
    const hand = table.game.hand;
    const seat = hand?.toAct as number;
    const who = table.game.seats[seat]?.userId as string;
    const ended = await c.deps.services.poker.act(table._id, who, { type: 'fold' }, table.step);
    expect(ended.game.hand?.street).toBe('done');
    // The number alone names the hand of this channel's table.
    await c.session.run('as viktor /poker verify hand:1');
    const printed = c.take();
    const fairness = hand?.fairness;
    expect(printed).toContain(
      `✅ Hand ${table._id}#1: its revealed server seed has the hash the board showed`,
    );
    expect(printed).toContain(`Server seed ${fairness?.serverSeed}`);
    expect(printed).toContain(`Its SHA-256 ${fairness?.serverSeedHash}`);
    expect(printed).toContain('@viktor viktors-seed');
    for (const p of hand?.players ?? [])
      expect(printed).toContain(`@${c.identities.nameOf(p.userId)} ${p.hole.map(cardText).join(' ')}`);
    expect(printed).toContain(
      `--client-seeds ${fairness?.clientSeeds.map((s) => s.seed).join(',')} --hand 1`,
    );
  });

  it('GIVEN a hand that does not exist or a malformed id THEN a clear refusal', async () => {
    await c.session.run(`/poker verify hand:${table._id}#9`);
    expect(c.take()).toContain(`There is no hand ${table._id}#9 to check.`);
    await c.session.run('/poker verify hand:2');
    expect(c.take()).toContain('is not dealt yet: only its seed');
    await c.session.run('/poker verify hand:what?');
    expect(c.take()).toContain("a hand's id is its table and number as the board shows it");
  });
});
