import { readFileSync } from 'node:fs';
import { parseHand } from 'hhp';
import { beforeEach, describe, expect, it } from 'vitest';
import type { HandRecord } from '../../utils/poker/handRecord.js';
import { HAND_PLAYERS, HANDS } from '../../utils/poker/handStore.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('poker_history');

const attachment = (text: string) => /attachment: (\S+\.txt) \((\d+) bytes\)/.exec(text)?.[1];

/** A console where alice and bob sit at a 5/10 table and play one hand, which the player to act folds. */
async function oneHandPlayed() {
  const c = makeConsole(t);
  for (const member of ['alice', 'bob'])
    await c.session.run(`as admin /admin cookies grant user:${member} amount:1000`);
  await c.session.run('as alice /poker create small_blind:5 max_buy_in:400');
  await c.session.run('as alice !click Sit 200');
  await c.session.run('as bob !click Sit 200');
  await c.session.run('as alice !click Start');
  const table = async () => (await t.db.collection<TableDoc>('poker_tables').findOne({})) as TableDoc;
  const first = await table();
  const toAct = first.game.seats[first.game.hand?.toAct ?? -1]?.userId;
  const name = toAct === c.identities.get('alice').id ? 'alice' : 'bob';
  await c.session.run(`as ${name} !click Fold`);
  c.take();
  return { c, table, folder: name };
}

describe('/poker history, stats and leaderboard in the console', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a hand played WHEN a player asks for their history THEN they get their hand listed and a PokerStars file a parser reads', async () => {
    const { c, folder } = await oneHandPlayed();
    expect(await t.db.collection(HANDS).countDocuments({})).toBe(1);
    expect(await c.session.run('as alice /poker history count:5')).toBe('ok');
    const reply = c.take();
    expect(reply).toContain('Your last poker hands');
    expect(reply).toMatch(/#1 · .* · (SB|BTN|BB) · [+−]/);
    const file = attachment(reply);
    expect(file).toBeDefined();
    const text = readFileSync(file as string, 'utf8');
    expect(text).toMatch(
      /^PokerStars Hand #\d+: {2}Hold'em No Limit \(5\/10\) - \d{4}\/\d{2}\/\d{2} \d+:\d{2}:\d{2} ET$/m,
    );
    expect(text).toContain('Dealt to alice [');
    expect(text).toContain(`${folder}: folds`);
    // The parser reads it once the header names a currency (hhp reads real-money headers only).
    const parsed = parseHand(text.replace(/\((\d+)\/(\d+)\)/, '($$$1/$$$2)'));
    expect(parsed?.seats.map((s) => [s.player, s.chips])).toEqual([
      ['alice', 200],
      ['bob', 200],
    ]);

    await c.session.run('!locale de');
    await c.session.run('as bob /poker verlauf');
    expect(c.take()).toContain('Deine letzten Pokerhände');
  });

  it('GIVEN a crash after a hand ended and before its record was written THEN the next deal writes it, once', async () => {
    const { c } = await oneHandPlayed();
    await t.db.collection(HANDS).deleteMany({});
    await t.db.collection(HAND_PLAYERS).deleteMany({});
    // The next hand deals itself poker.next_hand_s later: the ended hand is recorded before it goes.
    await c.session.run('!wait 6s');
    const hands = await t.db.collection<HandRecord>(HANDS).find({}).toArray();
    expect(hands.map((h) => h.number)).toEqual([1]);
    expect(await t.db.collection(HAND_PLAYERS).countDocuments({})).toBe(2);
  });

  it('GIVEN a player who is forgotten THEN their hands keep their chips under the pseudonym, and the history of the others still reads', async () => {
    const { c } = await oneHandPlayed();
    const bob = c.identities.get('bob').id;
    await c.session.run('as alice !click Close');
    await c.session.run('as bob /privacy forget');
    expect(await c.session.run('as bob !click Erase my data')).toBe('ok');
    c.take();
    const kept = JSON.stringify([
      ...(await t.db.collection(HANDS).find({}).toArray()),
      ...(await t.db.collection(HAND_PLAYERS).find({}).toArray()),
    ]);
    expect(kept).not.toContain(bob);
    expect(kept).toContain('former-');
    await c.session.run('as alice /poker history');
    const text = readFileSync(attachment(c.take()) as string, 'utf8');
    expect(text).toMatch(/^Seat \d: former-\S+ \(\d+ in chips\)$/m);
  });

  it('GIVEN hands played THEN /poker stats and /poker leaderboard add them up, in English and German; a member without hands is told so', async () => {
    const { c, folder } = await oneHandPlayed();
    const winner = folder === 'alice' ? 'bob' : 'alice';
    await c.session.run(`as ${winner} /poker stats`);
    const stats = c.take();
    expect(stats).toContain(`Poker stats of ${winner}`);
    expect(stats).toContain('Hands played');
    await c.session.run(`as ${winner} /poker stats user:carl`);
    expect(c.take()).toContain('carl has not played a poker hand yet.');
    await c.session.run('as carl /poker leaderboard');
    const board = c.take();
    expect(board).toContain('Poker leaderboard: this server');
    expect(board).toMatch(new RegExp(`1\\.\\*?\\*? ${winner} · \\+`));
    await c.session.run('!locale de');
    await c.session.run(`as ${folder} /poker statistik`);
    expect(c.take()).toContain(`Pokerstatistik von ${folder}`);
  });
});
