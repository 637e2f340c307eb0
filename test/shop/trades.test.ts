import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { isAppError } from '../../src/errors.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import type { LedgerHooks } from '../../utils/money/ledger/ledger.js';
import { fundVaultAndMembers, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { stockShelf } from '../support/shopShelf.js';

const t = useTestDatabase('shop_trades');
const GUILD = '860000000000000001';
const MOD = '860000000000000002';
const OTHER_GUILD = '860000000000000009';
const ANA = '860000000000000101';
const BEN = '860000000000000102';
const CAT = '860000000000000103';
const MINUTE = 60_000;

async function setUp(hooks?: LedgerHooks) {
  const made = makeBotDeps(t, hooks ? { hooks } : {});
  await fundVaultAndMembers(made.deps, 1_000_000, [ANA, BEN, CAT], 1_000);
  await stockShelf(made.deps, { guildId: GUILD, actorId: MOD }, { name: 'Golden ticket', price: 100 });
  return made;
}

/** One unit bought by `owner`: its id. */
async function ticket(deps: BotDeps, owner: string, opId: string): Promise<string> {
  const bought = await deps.services.shop.buy({
    opId,
    guildId: GUILD,
    userId: owner,
    item: 'Golden ticket',
    roleIds: [],
  });
  return bought.purchase._id;
}

function open(deps: BotDeps, tradeId: string, from = ANA, to = BEN) {
  return deps.services.trades.open({ tradeId, guildId: GUILD, from, to, locale: 'en' });
}

/** The ledger's books and every feature's (the trades' included). */
async function booksProblems(deps: BotDeps): Promise<string[]> {
  await deps.ledger.flush();
  const ledger = await checkInvariants(t.cols);
  return [
    ...ledger.problems,
    ...(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())),
  ];
}

async function balances(deps: BotDeps, ...members: string[]): Promise<number[]> {
  await deps.ledger.flush();
  return Promise.all(members.map((m) => deps.cookieEconomy.balance(m)));
}

async function ownerOf(unitId: string) {
  const unit = await t.db.collection('shop_inventory').findOne({ _id: unitId as never });
  return { owner: unit?.owner, tradeId: unit?.tradeId };
}

/** Ana offers 300 Cookies and her ticket, Ben 50 Cookies and his; both confirmed nothing yet. */
async function filledTrade(deps: BotDeps, tradeId = 't1') {
  const anaTicket = await ticket(deps, ANA, `${tradeId}-buy-ana`);
  const benTicket = await ticket(deps, BEN, `${tradeId}-buy-ben`);
  const trades = deps.services.trades;
  await open(deps, tradeId);
  await trades.setCookies({ tradeId, userId: ANA, amount: 300 });
  await trades.setCookies({ tradeId, userId: BEN, amount: 50 });
  await trades.addItem({ tradeId, userId: ANA, unitId: anaTicket });
  const trade = await trades.addItem({ tradeId, userId: BEN, unitId: benTicket });
  return { trade, anaTicket, benTicket };
}

describe('trades in escrow', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN both sides confirming what they see THEN each gets the other offer, once, and the books balance', async () => {
    const { deps } = await setUp();
    const { trade, anaTicket, benTicket } = await filledTrade(deps);
    // In escrow: the Cookies left the members, the tickets are locked.
    expect(await balances(deps, ANA, BEN)).toEqual([600, 850]);
    expect(await ownerOf(anaTicket)).toEqual({ owner: ANA, tradeId: 't1' });
    const trades = deps.services.trades;
    expect(await trades.confirm({ tradeId: 't1', userId: ANA, revision: trade.revision })).toMatchObject({
      status: 'confirmed',
    });
    const done = await trades.confirm({ tradeId: 't1', userId: BEN, revision: trade.revision });
    expect(done.status).toBe('settled');
    expect(done.trade.state).toBe('settled');
    expect(await balances(deps, ANA, BEN)).toEqual([650, 1_150]);
    expect(await ownerOf(anaTicket)).toEqual({ owner: BEN, tradeId: null });
    expect(await ownerOf(benTicket)).toEqual({ owner: ANA, tradeId: null });
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN a changed amount THEN the old hold is returned and only the new amount is held', async () => {
    const { deps } = await setUp();
    await open(deps, 't2');
    const trades = deps.services.trades;
    await trades.setCookies({ tradeId: 't2', userId: ANA, amount: 500 });
    await trades.setCookies({ tradeId: 't2', userId: ANA, amount: 200 });
    expect(await balances(deps, ANA)).toEqual([800]);
    const taken = await trades.setCookies({ tradeId: 't2', userId: ANA, amount: 0 });
    expect(taken.a).toMatchObject({ cookies: 0, holdId: null });
    expect(await balances(deps, ANA)).toEqual([1_000]);
    await trades.cancel({ tradeId: 't2', userId: BEN });
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN more Cookies than the member has THEN it is refused with the balance and the amount, and the offer stays', async () => {
    const { deps } = await setUp();
    await open(deps, 't3');
    const trades = deps.services.trades;
    await trades.setCookies({ tradeId: 't3', userId: ANA, amount: 400 });
    await expect(trades.setCookies({ tradeId: 't3', userId: ANA, amount: 1_500 })).rejects.toMatchObject({
      code: 'INSUFFICIENT_COOKIES',
      context: { balance: 1_000, needed: 1_500 },
    });
    expect((await trades.get('t3'))?.a.cookies).toBe(400);
    expect(await balances(deps, ANA)).toEqual([600]);
  });

  it('GIVEN a trade with oneself, a second open trade of the same two, or trading switched off THEN each is refused and nothing opens', async () => {
    const { deps } = await setUp();
    await expect(open(deps, 'self', ANA, ANA)).rejects.toMatchObject({
      context: { messageKey: 'shop:trade.errors.self' },
    });
    await open(deps, 'first');
    await expect(open(deps, 'second', BEN, ANA)).rejects.toMatchObject({
      context: { messageKey: 'shop:trade.errors.alreadyOpen', member: ANA },
    });
    expect(await deps.services.trades.get('second')).toBeNull();
    await deps.runtimeConfig.set('shop.trade_enabled', 'off', 'admin', { guildId: GUILD });
    await expect(open(deps, 'third', ANA, CAT)).rejects.toMatchObject({ code: 'FEATURE_DISABLED' });
  });

  it('GIVEN both confirming at once while one gifts the traded ticket elsewhere THEN the gift is refused and the trade settles with it', async () => {
    const { deps } = await setUp();
    const { trade, anaTicket } = await filledTrade(deps);
    const trades = deps.services.trades;
    const [a, b, gift] = await Promise.all([
      trades.confirm({ tradeId: 't1', userId: ANA, revision: trade.revision }),
      trades.confirm({ tradeId: 't1', userId: BEN, revision: trade.revision }),
      deps.services.shop
        .gift({ opId: 'gift', from: ANA, to: CAT, unitId: anaTicket })
        .catch((error: unknown) => error),
    ]);
    // Refused either way: held in the trade, or already Ben's when the trade settled first.
    expect(isAppError(gift, 'ITEM_NOT_FREE') && gift.context.why).toMatch(/^(in_trade|not_yours)$/);
    expect([a.status, b.status].sort()).toEqual(['confirmed', 'settled']);
    expect((await trades.get('t1'))?.state).toBe('settled');
    expect(await ownerOf(anaTicket)).toEqual({ owner: BEN, tradeId: null });
    expect(await balances(deps, ANA, BEN, CAT)).toEqual([650, 1_150, 1_000]);
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN a gift and a trade reaching for the same ticket at once THEN exactly one gets it', async () => {
    const { deps } = await setUp();
    for (let round = 0; round < 6; round++) {
      const tradeId = `g${round}`;
      const unit = await ticket(deps, ANA, `gift-race-${round}`);
      await open(deps, tradeId, ANA, BEN);
      const [added, gift] = await Promise.all([
        deps.services.trades.addItem({ tradeId, userId: ANA, unitId: unit }).catch((error: unknown) => error),
        deps.services.shop
          .gift({ opId: `gift-${round}`, from: ANA, to: CAT, unitId: unit })
          .catch((error: unknown) => error),
      ]);
      const inTrade = !isAppError(added);
      expect(inTrade).toBe(isAppError(gift));
      expect(await ownerOf(unit)).toEqual(inTrade ? { owner: ANA, tradeId } : { owner: CAT, tradeId: null });
      await deps.services.trades.cancel({ tradeId, userId: ANA });
    }
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN Confirm racing Cancel THEN the trade ends one way: swapped on both sides, or returned on both', async () => {
    const { deps } = await setUp();
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const tradeId = `r${round}`;
      const trades = deps.services.trades;
      await open(deps, tradeId);
      await trades.setCookies({ tradeId, userId: ANA, amount: 10 });
      const trade = await trades.setCookies({ tradeId, userId: BEN, amount: 20 });
      await trades.confirm({ tradeId, userId: ANA, revision: trade.revision });
      const before = await balances(deps, ANA, BEN);
      await Promise.all([
        trades.confirm({ tradeId, userId: BEN, revision: trade.revision }).catch(() => null),
        trades.cancel({ tradeId, userId: ANA }).catch(() => null),
      ]);
      const ended = await trades.get(tradeId);
      const after = await balances(deps, ANA, BEN);
      outcomes.add(ended?.state ?? 'none');
      expect(after).toEqual(
        ended?.state === 'settled'
          ? [(before[0] ?? 0) + 20, (before[1] ?? 0) + 10]
          : [(before[0] ?? 0) + 10, (before[1] ?? 0) + 20],
      );
    }
    expect([...outcomes].every((o) => o === 'settled' || o === 'cancelled')).toBe(true);
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN two trades reaching for the same ticket at once THEN one gets it and the other is told it is in a trade', async () => {
    const { deps } = await setUp();
    const unit = await ticket(deps, ANA, 'shared');
    await open(deps, 'x1', ANA, BEN);
    await open(deps, 'x2', ANA, CAT);
    const results = await Promise.all(
      ['x1', 'x2'].map((tradeId) =>
        deps.services.trades.addItem({ tradeId, userId: ANA, unitId: unit }).catch((error: unknown) => error),
      ),
    );
    const refused = results.filter((r) => isAppError(r));
    expect(refused).toHaveLength(1);
    expect(isAppError(refused[0], 'ITEM_NOT_FREE') && refused[0].context.why).toBe('in_trade');
    const holders = await Promise.all(['x1', 'x2'].map((id) => deps.services.trades.get(id)));
    expect(holders.filter((h) => h?.a.units.some((u) => u.id === unit))).toHaveLength(1);
  });

  it('GIVEN Confirm pressed twice by both THEN the trade settles once', async () => {
    const { deps } = await setUp();
    const { trade } = await filledTrade(deps);
    const trades = deps.services.trades;
    const presses = await Promise.all(
      [ANA, BEN, ANA, BEN].map((userId) =>
        trades.confirm({ tradeId: 't1', userId, revision: trade.revision }),
      ),
    );
    expect(presses.some((p) => p.status === 'settled')).toBe(true);
    expect(await balances(deps, ANA, BEN)).toEqual([650, 1_150]);
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN a Confirm on a board older than the last change THEN it is refused with what changed, and nothing settles', async () => {
    const { deps } = await setUp();
    const { trade } = await filledTrade(deps);
    const trades = deps.services.trades;
    await trades.confirm({ tradeId: 't1', userId: ANA, revision: trade.revision });
    const changed = await trades.setCookies({ tradeId: 't1', userId: ANA, amount: 10 });
    expect(changed.confirmed).toEqual({ a: null, b: null });
    const stale = await trades.confirm({ tradeId: 't1', userId: BEN, revision: trade.revision });
    expect(stale.status).toBe('changed');
    expect(stale.status === 'changed' && stale.missed.map((c) => [c.by, c.what, c.value])).toEqual([
      [ANA, 'cookies', '10'],
    ]);
    expect(stale.trade.state).toBe('open');
  });

  it('GIVEN a crash between the two posts of a swap THEN the trade timer posts the other side too, and the books balance', async () => {
    let crash = true;
    const { deps, clock } = await setUp({
      step(step, spec) {
        // Ana's Cookies went to Ben; the process dies before Ben's reach Ana.
        if (crash && step === 'credit.before' && /^hold:trade:t1:b:\d+:post:0$/.test(spec.opId)) {
          crash = false;
          throw new Error('the process died');
        }
      },
    });
    const { trade, anaTicket } = await filledTrade(deps);
    const trades = deps.services.trades;
    await trades.confirm({ tradeId: 't1', userId: ANA, revision: trade.revision });
    await expect(trades.confirm({ tradeId: 't1', userId: BEN, revision: trade.revision })).rejects.toThrow(
      'the process died',
    );
    expect((await trades.get('t1'))?.state).toBe('settling');
    // Half-way: Ben got Ana's Cookies, Ana not yet his.
    expect(await balances(deps, ANA, BEN)).toEqual([600, 1_150]);
    // A new process over the same database runs the trade's timer.
    const restarted = makeBotDeps(t);
    restarted.clock.advanceTo(new Date(clock.now().getTime() + 20 * MINUTE));
    await restarted.deps.scheduler.runDue();
    expect((await restarted.deps.services.trades.get('t1'))?.state).toBe('settled');
    expect(await balances(restarted.deps, ANA, BEN)).toEqual([650, 1_150]);
    expect(await ownerOf(anaTicket)).toEqual({ owner: BEN, tradeId: null });
    expect(await booksProblems(restarted.deps)).toEqual([]);
  });

  it('GIVEN both confirming after the trade ran out, before its timer THEN it is called off and nothing swaps', async () => {
    const { deps, clock } = await setUp();
    const { trade } = await filledTrade(deps);
    const trades = deps.services.trades;
    await trades.confirm({ tradeId: 't1', userId: ANA, revision: trade.revision });
    clock.advance(16 * MINUTE);
    const late = await trades.confirm({ tradeId: 't1', userId: BEN, revision: trade.revision });
    expect(late).toMatchObject({ status: 'ended', trade: { state: 'cancelled' } });
    expect(await balances(deps, ANA, BEN)).toEqual([900, 900]);
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN an item bought in another server THEN it is refused from the trade and stays free', async () => {
    const { deps } = await setUp();
    const unit = await ticket(deps, ANA, 'elsewhere');
    await t.db
      .collection('shop_inventory')
      .updateOne({ _id: unit as never }, { $set: { guildId: OTHER_GUILD } });
    await open(deps, 'o1');
    await expect(
      deps.services.trades.addItem({ tradeId: 'o1', userId: ANA, unitId: unit }),
    ).rejects.toMatchObject({
      context: { messageKey: 'shop:trade.errors.otherServer', name: 'Golden ticket' },
    });
    expect(await ownerOf(unit)).toEqual({ owner: ANA, tradeId: null });
  });

  it('GIVEN an open trade THEN each side has it in play once, and nothing once it ended', async () => {
    const { deps } = await setUp();
    await open(deps, 'p1');
    await deps.services.trades.setCookies({ tradeId: 'p1', userId: ANA, amount: 30 });
    const inPlay = (member: string) => deps.services.privacy.inPlay(deps.services, member);
    expect(await inPlay(ANA)).toEqual({ trade: 1 });
    expect(await inPlay(BEN)).toEqual({ trade: 1 });
    await deps.services.trades.cancel({ tradeId: 'p1', userId: BEN });
    expect(await inPlay(ANA)).toEqual({});
    expect(await inPlay(BEN)).toEqual({});
  });

  it('GIVEN a trade left open past its time THEN its timer calls it off: Cookies back, items free', async () => {
    const { deps, clock } = await setUp();
    const { anaTicket } = await filledTrade(deps);
    clock.advance(16 * MINUTE);
    await deps.scheduler.runDue();
    expect((await deps.services.trades.get('t1'))?.state).toBe('cancelled');
    expect(await balances(deps, ANA, BEN)).toEqual([900, 900]);
    expect(await ownerOf(anaTicket)).toEqual({ owner: ANA, tradeId: null });
    expect(await booksProblems(deps)).toEqual([]);
  });
});
