import type { Collection, Db, Document } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import type { ManualClock } from '../../src/clock.js';
import { isAppError } from '../../src/errors.js';
import type { BotDeps } from '../../src/interactions/types.js';
import type { MentionPolicy, RewriteCounts } from '../../src/privacy/mentions.js';
import { COOKIE_KINDS, CookieEconomy } from '../../utils/money/cookieEconomy.js';
import { PlaceEconomy } from '../../utils/money/placeEconomy.js';
import { Erasures } from '../../utils/privacy/erasure.js';
import { type ErasureDoc, ErasureStore } from '../../utils/privacy/erasureStore.js';
import { Freeze } from '../../utils/privacy/freeze.js';
import { PersonalDataStore } from '../../utils/privacy/personalDataStore.js';
import { fundVaultAndMembers, grantPlacePoints, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { everything, naming } from '../support/databaseScan.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { waitFor } from '../support/waitFor.js';

/**
 * Forgetting a member while the bot keeps running: two requests at once, the member still
 * acting, a process that stops half-way, others painting over their pixels. Whatever happens,
 * the books and the canvas balance, no Cookie appears or vanishes, and once the erasure is done
 * the member's id is in no collection.
 */
const t = useTestDatabase('privacy_forget_races');
const ZORA = '874100000000000001';
const OTHERS = ['874100000000000101', '874100000000000102', '874100000000000103'];
const EVERYONE = [ZORA, ...OTHERS];
const MODERATOR = '874100000000000900';
const LEASE_MS = 5 * 60_000;

async function expectBooksClean(deps: BotDeps): Promise<void> {
  await deps.ledger.flush();
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
}

async function expectForgotten(ids: readonly string[]): Promise<void> {
  const dump = await everything(t.db);
  for (const id of ids) expect(naming(dump, id)).toEqual([]);
}

/**
 * The canvas's and the games' books balance, neither her id nor her worker's is anywhere, and
 * an hour later she collects again: a fresh start under her id.
 */
async function expectGoneAndBack(deps: BotDeps, clock: ManualClock, worker: string): Promise<void> {
  expect.soft(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  const dump = await everything(t.db);
  expect.soft(naming(dump, ZORA)).toEqual([]);
  expect.soft(naming(dump, worker)).toEqual([]);
  clock.advance(3_600_000);
  expect.soft(await collectsAfresh(deps)).toBe('collected');
}

/** Tolerates the refusals a member may get (AppErrors); anything else fails the test. */
async function refusedOrDone<T>(action: () => Promise<T>, refusals: string[]): Promise<T | null> {
  try {
    return await action();
  } catch (error) {
    if (!isAppError(error)) throw error;
    refusals.push(error.code);
    return null;
  }
}

/** A short life: Cookies and points, a collect, gives both ways, a round, pixels, a worker. */
async function aLife(deps: BotDeps, clock: ManualClock): Promise<{ worker: string }> {
  await deps.runtimeConfig.set('cookies.collect_cooldown_s', '0', 'admin');
  await fundVaultAndMembers(deps, 1_000_000, EVERYONE, 5_000);
  for (const m of EVERYONE) {
    await deps.profiles.touch({ id: m, name: m === ZORA ? 'Zora Quill' : `member ${m.slice(-3)}` });
  }
  await grantPlacePoints(deps, EVERYONE, 20_000);
  clock.advance(25 * 3_600_000);
  await deps.services.collect.collect(ZORA, 'command');
  for (const [i, other] of OTHERS.entries()) {
    await deps.services.cookies.openGive({
      promptId: `life-out-${i}`,
      from: ZORA,
      to: other,
      amount: 10 + i,
    });
    await deps.services.cookies.confirmGive(`life-out-${i}`, ZORA);
    await deps.services.cookies.openGive({ promptId: `life-in-${i}`, from: other, to: ZORA, amount: 20 + i });
    await deps.services.cookies.confirmGive(`life-in-${i}`, other);
  }
  await deps.services.games.playInstant('coinflip', {
    roundId: 'life-flip',
    userId: ZORA,
    bet: 25,
    params: { side: 'heads' },
  });
  for (let x = 0; x < 8; x++) {
    await deps.services.place.place({ opId: `z-${x}`, userId: ZORA, x, y: 2, color: 5 });
  }
  const worker = await deps.services.workers.link(ZORA, 'laptop');
  // Her placements count as on their way until the canvas's sweep has seen them (a minute).
  clock.advance(3 * 60_000);
  await deps.scheduler.runDue();
  await deps.ledger.flush();
  return { worker: worker._id };
}

/** The collections the erasure rewrites last, in its order (utils/privacy/erasure.ts, `LAST`). */
const LAST = ['holds', 'ledger_stuck_ops', 'ledger_events', 'items_cookies', 'place_wallets'];

/**
 * The erasure's data as a test steers it: `before(collection, index)` runs before each
 * collection is rewritten (0: the first), to act meanwhile or to stop the process there.
 */
class WatchedData extends PersonalDataStore {
  #index = 0;

  constructor(
    db: Db,
    private readonly before: (collection: string, index: number) => Promise<void>,
  ) {
    super(db);
  }

  override async rewrite(
    collection: string,
    to: ReadonlyMap<string, string>,
    policy: (doc: Document) => MentionPolicy,
  ): Promise<RewriteCounts> {
    await this.before(collection, this.#index++);
    return super.rewrite(collection, to, policy);
  }
}

/** A process that stops (throws) when it is about to rewrite its `stopAt`-th collection. */
function stopsBeforeRewrite(db: Db, stopAt: number): PersonalDataStore {
  return new WatchedData(db, async (collection, index) => {
    if (index >= stopAt) throw new Error(`the process stopped before rewriting ${collection}`);
  });
}

/**
 * The database as a process sees it that stops inside a rename: in `collection`, its first
 * `deleteOne` throws, after the renamed copy was inserted and before the old document went.
 */
function stopsInsideRename(db: Db, collection: string): Db {
  let stopped = false;
  const wrap = (target: Collection<Document>): Collection<Document> =>
    new Proxy(target, {
      get(c, prop) {
        if (prop === 'deleteOne' && !stopped) {
          return () => {
            stopped = true;
            return Promise.reject(new Error(`the process stopped inside a rename in ${collection}`));
          };
        }
        const value = Reflect.get(c, prop, c);
        return typeof value === 'function' ? value.bind(c) : value;
      },
    });
  return new Proxy(db, {
    get(d, prop) {
      if (prop === 'collection') {
        return (name: string, options?: object) => {
          const c = d.collection<Document>(name, options);
          return name === collection ? wrap(c) : c;
        };
      }
      const value = Reflect.get(d, prop, d);
      return typeof value === 'function' ? value.bind(d) : value;
    },
  });
}

/** The erasure as a second process runs it, reading and rewriting through `data`. */
function erasuresOver(deps: BotDeps, data: PersonalDataStore): Erasures {
  const erasures = new ErasureStore(t.db);
  return new Erasures({
    ...deps,
    erasures,
    freeze: new Freeze({ erasures }),
    data,
    cookies: new CookieEconomy(deps.ledger),
    place: new PlaceEconomy(deps.ledger),
    personalData: ASSEMBLY.personalData,
  });
}

/**
 * Starts an erasure in a process that stops on the way (`run` rejects), then lets the lease
 * lapse and runs the timers, as the next process would: returns the erasure as it ended.
 */
async function crashThenResume(deps: BotDeps, clock: ManualClock, crashing: Erasures): Promise<ErasureDoc> {
  const requested = await crashing.request(deps.services, ZORA, 'self', 'en');
  await expect(crashing.run(deps.services, requested._id)).rejects.toThrow(/the process stopped/);
  const running = await t.db.collection<ErasureDoc>('privacy_erasures').findOne({ _id: requested._id });
  expect(running?.state).toBe('running');
  // Nobody else takes it over while the lease of the stopped process holds.
  expect(await deps.services.privacy.forget(deps.services, ZORA, 'self', 'en')).toMatchObject({
    _id: requested._id,
    state: 'running',
  });
  clock.advance(LEASE_MS + 1_000);
  await deps.scheduler.runDue();
  const task = await deps.scheduler.get(`privacy.erase:${requested._id}`);
  const after = await t.db.collection<ErasureDoc>('privacy_erasures').findOne({ _id: requested._id });
  expect(after?.state, `the timer's run: ${String(task?.lastError)}`).toBe('done');
  return after as ErasureDoc;
}

/** A promise and its resolver: a place a test waits at, or lets go of. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Her collect after the erasure: a fresh account holding just the reward, or why it failed. */
function collectsAfresh(deps: BotDeps): Promise<string> {
  return deps.services.collect.collect(ZORA, 'command').then(
    (c) => (c.balance === c.amount ? 'collected' : `collected ${c.amount} into a balance of ${c.balance}`),
    (error: unknown) => String(error),
  );
}

/**
 * Others painting her row (y = 2, where she painted x = 0..7): `paint(p, x)` is a placement by
 * `OTHERS[p]`; `expectKept` checks that none was refused or lost, that each pixel shows the
 * newest placement on it, and that the pixels nobody painted over are the pseudonym's.
 */
function paintings(deps: BotDeps) {
  const placed: { x: number; owner: string; revision: number }[] = [];
  let count = 0;
  return {
    placed,
    async paint(p: number, x: number): Promise<void> {
      const owner = OTHERS[p] as string;
      const result = await deps.services.place.place({
        opId: `o-${p}-${count++}`,
        userId: owner,
        x,
        y: 2,
        color: 10 + p,
      });
      placed.push({ x, owner, revision: result.revision });
    },
    async expectKept(pseudonym: string): Promise<void> {
      await deps.ledger.flush();
      const events = t.db.collection('place_pixel_events');
      expect(await events.countDocuments({ kind: 'place' })).toBe(8 + placed.length);
      expect(await events.countDocuments({ kind: 'place', owner: pseudonym })).toBe(8);
      for (let x = 0; x < 8; x++) {
        const newest = placed.filter((p) => p.x === x).sort((a, b) => b.revision - a.revision)[0];
        const pixel = (await deps.services.place.pixelInfo(x, 2))?.pixel;
        expect(pixel?.owner).toBe(newest ? newest.owner : pseudonym);
      }
    },
  };
}

/** What the ledger says was forfeited by an erasure: Cookies to the vault, points burned. */
async function forfeitedByLedger(): Promise<{ cookies: number; points: number }> {
  const events = await t.db
    .collection('ledger_events')
    .find({ kind: { $in: [COOKIE_KINDS.forfeit, 'place.forfeit'] } })
    .toArray();
  const sum = (kind: string, leg: string) =>
    events.filter((e) => e.kind === kind && e.leg === leg).reduce((n, e) => n + Number(e.amount), 0);
  return { cookies: sum(COOKIE_KINDS.forfeit, 'credit'), points: sum('place.forfeit', 'debit') };
}

describe('forgetting a member while the bot keeps running', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN the member and a moderator asking at the same moment THEN one erasure runs, both get its pseudonym, the Cookies go to the vault once, no audit event is lost and every book balances', async () => {
    const { deps, clock } = makeBotDeps(t);
    const { worker } = await aLife(deps, clock);
    const cookies = await deps.services.cookies.balance(ZORA);
    const vaultBefore = await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId);
    const eventsBefore = await t.db.collection('ledger_events').countDocuments();

    const [mine, moderators] = await Promise.allSettled([
      deps.services.privacy.forget(deps.services, ZORA, 'self', 'en'),
      deps.services.privacy.forget(deps.services, ZORA, MODERATOR, 'en'),
    ]);
    // The durable task of the request finds it done and does nothing more.
    await deps.scheduler.runDue();
    await deps.ledger.flush();

    const records = await t.db.collection<ErasureDoc>('privacy_erasures').find({}).toArray();
    expect(records).toHaveLength(1);
    const record = records[0] as ErasureDoc;
    expect(record).toMatchObject({ state: 'done' });
    expect(record.subject).toBeUndefined();
    // Every event is still there, renamed; the forfeits (one Cookie transfer, one point burn) added.
    const forfeitEvents = await t.db
      .collection('ledger_events')
      .countDocuments({ kind: { $in: [COOKIE_KINDS.forfeit, 'place.forfeit'] } });
    expect(forfeitEvents).toBe(3);
    expect(await t.db.collection('ledger_events').countDocuments()).toBe(eventsBefore + forfeitEvents);
    expect(await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId)).toBe(vaultBefore + cookies);
    await expectBooksClean(deps);
    await expectForgotten([ZORA, worker]);
    // Both asked; both are told it is done, under the same pseudonym.
    expect(mine).toMatchObject({
      status: 'fulfilled',
      value: { _id: record._id, pseudonym: record.pseudonym },
    });
    expect(moderators).toMatchObject({
      status: 'fulfilled',
      value: { _id: record._id, pseudonym: record.pseudonym },
    });
  });

  it('GIVEN a live process whose scheduler runs timers WHEN a member asks once THEN the press and the timer share one run: it answers done, the timer finds it done, no audit event is lost', async () => {
    const { deps, clock } = makeBotDeps(t);
    const { worker } = await aLife(deps, clock);
    const eventsBefore = await t.db.collection('ledger_events').countDocuments();
    deps.scheduler.start(10);
    try {
      const asked = await deps.services.privacy.forget(deps.services, ZORA, 'self', 'en').then(
        (erasure) => ({ erasure }),
        (error: unknown) => ({ error: String(error) }),
      );
      // The request's timer, kicked at once in a live process, has run once (done or to be retried).
      const record = await t.db.collection<ErasureDoc>('privacy_erasures').findOne({});
      await waitFor(
        async () => {
          const task = await deps.scheduler.get(`privacy.erase:${record?._id}`);
          return task && task.attempts >= 1 && task.leaseOwner === null;
        },
        { timeoutMs: 15_000, what: 'the erasure task to have run' },
      );
      await deps.scheduler.stop();
      // Two runs under one lease would each fail "lost its lease" when the other ended first.
      expect(asked).toMatchObject({ erasure: { state: 'done' } });
      expect(await deps.scheduler.get(`privacy.erase:${record?._id}`)).toMatchObject({
        status: 'done',
        lastError: null,
      });
      expect(await t.db.collection('ledger_events').countDocuments()).toBe(eventsBefore + 3);
      await expectBooksClean(deps);
      await expectForgotten([ZORA, worker]);
    } finally {
      await deps.scheduler.stop();
    }
  });

  it('GIVEN the member collecting and giving through the gate her interactions pass, and being given to, while their erasure runs THEN some actions are refused, none fails otherwise, no Cookie appears or vanishes, the books balance, once done their id is in no collection and they can start again', async () => {
    const { deps, clock } = makeBotDeps(t);
    const { worker } = await aLife(deps, clock);
    const refusals: string[] = [];
    let running = true;
    let rounds = 0;
    let member: Promise<void> = Promise.resolve();
    // `forget` is `request` then `run`; the member stops acting only when the erasure comes to
    // her accounts (its very end), so that every action of hers ended before it did.
    const erasures = erasuresOver(
      deps,
      new WatchedData(t.db, async (collection) => {
        if (collection !== 'items_cookies') return;
        running = false;
        await member;
      }),
    );
    const requested = await erasures.request(deps.services, ZORA, 'self', 'en');
    const erasure = erasures.run(deps.services, requested._id);
    member = (async () => {
      for (let i = 0; running; i++) {
        const other = OTHERS[i % OTHERS.length] as string;
        // Her own actions pass the gate every interaction of hers passes (the runtime's).
        const asZora =
          <T>(action: () => Promise<T>) =>
          async () => {
            await deps.services.privacy.refuseErasing(ZORA);
            return action();
          };
        await Promise.all([
          refusedOrDone(
            asZora(() => deps.services.collect.collect(ZORA, 'command')),
            refusals,
          ),
          refusedOrDone(
            asZora(async () => {
              await deps.services.cookies.openGive({
                promptId: `out-${i}`,
                from: ZORA,
                to: other,
                amount: 3,
              });
              return deps.services.cookies.confirmGive(`out-${i}`, ZORA);
            }),
            refusals,
          ),
          refusedOrDone(async () => {
            await deps.services.cookies.openGive({ promptId: `in-${i}`, from: other, to: ZORA, amount: 7 });
            return deps.services.cookies.confirmGive(`in-${i}`, other);
          }, refusals),
        ]);
        rounds += 1;
      }
    })();
    let outcome: unknown;
    try {
      outcome = await erasure.then(
        (done) => done?.state,
        (error: unknown) => error,
      );
    } finally {
      running = false;
      await member;
    }
    expect(rounds).toBeGreaterThan(1);
    expect(refusals.length).toBeGreaterThan(0);
    // The erasure itself is not refused by what she does meanwhile (see the drain test below);
    // if it was, its timer finishes it after the lease.
    expect.soft(isAppError(outcome) ? `${outcome.code}: ${outcome.message}` : outcome).toBe('done');
    if (outcome !== 'done') {
      expect(isAppError(outcome)).toBe(true);
      clock.advance(LEASE_MS + 1_000);
      await deps.scheduler.runDue();
    }
    expect((await t.db.collection<ErasureDoc>('privacy_erasures').findOne({}))?.state).toBe('done');
    // Whatever the actions left open, their timers end (a collect's reward, a give's prompt).
    for (let i = 0; i < 4; i++) {
      clock.advance(10 * 60_000);
      await deps.scheduler.runDue();
    }
    await deps.ledger.flush();
    // No Cookie appeared or vanished: every balance is what its events say, their sum is
    // minted minus burned; and what the erasure says went to the vault is what moved.
    expect(await booksProblems(t.cols)).toEqual([]);
    const record = await t.db.collection<ErasureDoc>('privacy_erasures').findOne({ _id: requested._id });
    expect.soft(record?.forfeited).toEqual(await forfeitedByLedger());
    await expectGoneAndBack(deps, clock, worker);
  });

  it('GIVEN a collect of hers already past the gate when her accounts close THEN the collect is refused, and afterwards its reward hold has ended, her id is in no collection and she can collect again', async () => {
    const { deps, clock } = makeBotDeps(t);
    const { worker } = await aLife(deps, clock);
    let during: unknown = null;
    // A moment inside the erasure: her accounts are closed, the cooldowns and the timers are
    // rewritten already, the holds not yet.
    const erasures = erasuresOver(
      deps,
      new WatchedData(t.db, async (collection) => {
        // Once, in the first pass over every collection (a second pass follows).
        if (collection === 'holds' && during === null)
          during = await deps.services.collect.collect(ZORA, 'command').catch((e) => e);
      }),
    );
    const requested = await erasures.request(deps.services, ZORA, 'self', 'en');
    const done = await erasures.run(deps.services, requested._id);
    expect(done?.state).toBe('done');
    expect(isAppError(during, 'ACCOUNT_CLOSED'), JSON.stringify(during)).toBe(true);
    for (let i = 0; i < 4; i++) {
      clock.advance(10 * 60_000);
      await deps.scheduler.runDue();
    }
    await deps.ledger.flush();
    expect(await booksProblems(t.cols)).toEqual([]);
    // The reward she was refused is not left "posting" to an account closed for good.
    // Her cooldown (with its pending reward) is gone with her, and the reward's timer too.
    await expectGoneAndBack(deps, clock, worker);
  });

  it.each([
    ['before the first collection', () => 0],
    ['after the features\u2019 collections, before the holds', (names: string[]) => names.indexOf('holds')],
    [
      'after the ledger\u2019s events, before the balances',
      (names: string[]) => names.indexOf('items_cookies'),
    ],
    [
      'after the Cookie balances, before the Place wallets',
      (names: string[]) => names.indexOf('place_wallets'),
    ],
  ])(
    'GIVEN a process that stops %s THEN the timer finishes the erasure after the lease, and every book balances',
    async (_, stopAt) => {
      const { deps, clock } = makeBotDeps(t);
      const { worker } = await aLife(deps, clock);
      const names = await new PersonalDataStore(t.db).collectionsToRewrite(LAST);
      const n = stopAt(names);
      expect(n).toBeGreaterThanOrEqual(0);
      const crashing = erasuresOver(deps, stopsBeforeRewrite(t.db, n));
      const done = await crashThenResume(deps, clock, crashing);
      await expectBooksClean(deps);
      await expectForgotten([ZORA, worker]);
      expect(await deps.services.place.pixelInfo(3, 2)).toMatchObject({ pixel: { owner: done.pseudonym } });
    },
  );

  it.each([['holds'], ['ledger_events'], ['items_cookies']])(
    'GIVEN a process that stops inside a rename in %s (the copy inserted, the old document still there) THEN the timer finishes it, nothing is counted twice and every book balances',
    async (collection) => {
      const { deps, clock } = makeBotDeps(t);
      const { worker } = await aLife(deps, clock);
      const crashing = erasuresOver(deps, new PersonalDataStore(stopsInsideRename(t.db, collection)));
      await crashThenResume(deps, clock, crashing);
      await expectBooksClean(deps);
      await expectForgotten([ZORA, worker]);
    },
  );

  it('GIVEN a process slower than the lease, still rewriting the ledger\u2019s events when the timer\u2019s process takes the erasure over THEN no audit event is lost and every book balances', async () => {
    const { deps, clock } = makeBotDeps(t);
    const { worker } = await aLife(deps, clock);
    const eventsBefore = await t.db.collection('ledger_events').countDocuments();
    const go = signal();
    const pausedAt = (arrived: () => void) =>
      new WatchedData(t.db, async (collection) => {
        if (collection !== 'ledger_events') return;
        arrived();
        await go.promise;
      });
    const slowArrived = signal();
    const nextArrived = signal();
    const slow = erasuresOver(deps, pausedAt(slowArrived.resolve));
    const next = erasuresOver(deps, pausedAt(nextArrived.resolve));
    const requested = await slow.request(deps.services, ZORA, 'self', 'en');
    const slowRun = slow.run(deps.services, requested._id).catch((error: unknown) => error);
    await slowArrived.promise;
    // The slow process is past its lease: the timer's process claims the erasure and catches up.
    clock.advance(LEASE_MS + 1_000);
    const nextRun = next.run(deps.services, requested._id).catch((error: unknown) => error);
    await nextArrived.promise;
    go.resolve();
    const [first, second] = await Promise.all([slowRun, nextRun]);
    // The slow one finds its lease lost after the collection; the newer one finishes.
    expect(String(first)).toMatch(/lost its lease/);
    expect(second).toMatchObject({ state: 'done' });
    await deps.ledger.flush();
    const forfeits = await t.db
      .collection('ledger_events')
      .countDocuments({ kind: { $in: [COOKIE_KINDS.forfeit, 'place.forfeit'] } });
    expect(await t.db.collection('ledger_events').countDocuments()).toBe(eventsBefore + forfeits);
    await expectBooksClean(deps);
    await expectForgotten([ZORA, worker]);
  });

  it('GIVEN she gives Cookies away at the moment her erasure moves her balance to the vault THEN the erasure is not refused and finishes', async () => {
    const { deps, clock } = makeBotDeps(t);
    const { worker } = await aLife(deps, clock);
    const other = OTHERS[0] as string;
    let gave = false;
    /** Her give lands between the erasure reading her balance and moving it. */
    class GivesFirst extends CookieEconomy {
      override async toHouse(from: string, move: Parameters<CookieEconomy['toHouse']>[1]) {
        if (from === ZORA && !gave) {
          gave = true;
          await deps.services.cookies.openGive({ promptId: 'last-give', from: ZORA, to: other, amount: 3 });
          await deps.services.cookies.confirmGive('last-give', ZORA);
        }
        return super.toHouse(from, move);
      }
    }
    const store = new ErasureStore(t.db);
    const erasures = new Erasures({
      ...deps,
      erasures: store,
      freeze: new Freeze({ erasures: store }),
      data: new PersonalDataStore(t.db),
      cookies: new GivesFirst(deps.ledger),
      place: new PlaceEconomy(deps.ledger),
      personalData: ASSEMBLY.personalData,
    });
    const requested = await erasures.request(deps.services, ZORA, 'self', 'en');
    const outcome = await erasures.run(deps.services, requested._id).then(
      (done) => done?.state,
      (error: unknown) => String(error),
    );
    expect(gave).toBe(true);
    expect.soft(outcome).toBe('done');
    // Refused or not, the timer finishes it after the lease, and nothing moved twice.
    clock.advance(LEASE_MS + 1_000);
    await deps.scheduler.runDue();
    expect((await t.db.collection<ErasureDoc>('privacy_erasures').findOne({}))?.state).toBe('done');
    await expectBooksClean(deps);
    await expectForgotten([ZORA, worker]);
  });

  it('GIVEN a process that stops after renaming her Cookie account and a give to her meanwhile THEN the timer still finishes the erasure', async () => {
    const { deps, clock } = makeBotDeps(t);
    const { worker } = await aLife(deps, clock);
    const names = await new PersonalDataStore(t.db).collectionsToRewrite(LAST);
    const crashing = erasuresOver(deps, stopsBeforeRewrite(t.db, names.indexOf('place_wallets')));
    const requested = await crashing.request(deps.services, ZORA, 'self', 'en');
    await expect(crashing.run(deps.services, requested._id)).rejects.toThrow(/the process stopped/);
    // Her closed account went to the pseudonym: a give to her id opens a new one.
    const other = OTHERS[0] as string;
    await deps.services.cookies.openGive({ promptId: 'meanwhile', from: other, to: ZORA, amount: 7 });
    await deps.services.cookies.confirmGive('meanwhile', other);
    clock.advance(LEASE_MS + 1_000);
    await deps.scheduler.runDue();
    const task = await deps.scheduler.get(`privacy.erase:${requested._id}`);
    const record = await t.db.collection<ErasureDoc>('privacy_erasures').findOne({ _id: requested._id });
    expect(record?.state, `the timer's run: ${String(task?.lastError)}`).toBe('done');
    await expectBooksClean(deps);
    await expectForgotten([ZORA, worker]);
  });

  it('GIVEN a process that stops after the forfeits THEN the erasure finished by the timer records and audits the Cookies and points that went', async () => {
    const { deps, clock } = makeBotDeps(t);
    await aLife(deps, clock);
    const { cookies, points } = await deps.services.privacy.holdings(ZORA);
    expect(cookies).toBeGreaterThan(0);
    const crashing = erasuresOver(deps, stopsBeforeRewrite(t.db, 3));
    const done = await crashThenResume(deps, clock, crashing);
    await expectBooksClean(deps);
    expect(await forfeitedByLedger()).toEqual({ cookies, points });
    expect(done.forfeited).toEqual({ cookies, points });
    const audit = await t.db
      .collection('due_tasks')
      .findOne({ _id: `admin.audit.post:privacy.erased:${done._id}` as never });
    expect(String(audit?.payload?.text)).toContain(deps.i18n.for('en').cookies(cookies));
  });

  it('GIVEN others painting over her pixels while she is forgotten THEN no placement is lost, each pixel shows its newest placement, and hers carry the pseudonym', async () => {
    const { deps, clock } = makeBotDeps(t);
    const { worker } = await aLife(deps, clock);
    const canvas = paintings(deps);
    let running = true;
    const erasure = deps.services.privacy.forget(deps.services, ZORA, 'self', 'en').finally(() => {
      running = false;
    });
    const painters = OTHERS.map(async (_, p) => {
      // Within the painters' points (200 pixels each), however long the erasure takes.
      for (let i = 0; (running || i < 3) && i < 150; i++) await canvas.paint(p, (i * 3 + p) % 8);
    });
    const [done] = await Promise.all([erasure, ...painters]);
    expect(canvas.placed.length).toBeGreaterThanOrEqual(9);
    await canvas.expectKept(done.pseudonym);
    await expectBooksClean(deps);
    await expectForgotten([ZORA, worker]);
  });

  it('GIVEN others painting every one of her pixels at the moment the erasure rewrites the pixels THEN no placement is lost and each pixel shows its newest placement', async () => {
    const { deps, clock } = makeBotDeps(t);
    const { worker } = await aLife(deps, clock);
    const canvas = paintings(deps);
    let burst: Promise<unknown> = Promise.resolve();
    let fired = false;
    const erasures = erasuresOver(
      deps,
      new WatchedData(t.db, async (collection) => {
        // Not awaited: the placements race the (first) rewrite of `place_pixels`.
        if (collection === 'place_pixels' && !fired) {
          fired = true;
          burst = Promise.all(
            OTHERS.map((_, p) => Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((x) => canvas.paint(p, x)))),
          );
        }
      }),
    );
    const requested = await erasures.request(deps.services, ZORA, 'self', 'en');
    const done = await erasures.run(deps.services, requested._id);
    await burst;
    expect(done?.state).toBe('done');
    expect(canvas.placed).toHaveLength(24);
    await canvas.expectKept(requested.pseudonym);
    await expectBooksClean(deps);
    await expectForgotten([ZORA, worker]);
  });

  it('GIVEN a member forgotten THEN their export, in German, holds no document naming their old id, and nothing of theirs is left to show', async () => {
    const { deps, clock } = makeBotDeps(t);
    await aLife(deps, clock);
    const before = await deps.services.privacy.exportFor(deps.services, ZORA, deps.i18n.for('de'));
    expect(before.documents).toBeGreaterThan(10);

    const done = await deps.services.privacy.forget(deps.services, ZORA, MODERATOR, 'de');
    expect(done.state).toBe('done');
    const after = await deps.services.privacy.exportFor(deps.services, ZORA, deps.i18n.for('de'));
    const body = JSON.parse(after.data.toString('utf8')) as {
      summary: Record<string, unknown>;
      collections: Record<string, unknown>;
    };
    expect(after.documents).toBe(0);
    expect(body.collections).toEqual({});
    expect(body.summary).toMatchObject({ cookies: 0, placePoints: 0, pixelsPainted: 0, workers: [] });
    expect(naming(JSON.stringify(body.collections), ZORA)).toEqual([]);
    // What stays is the pseudonym's, which the export of her id does not reach.
    expect(naming(await everything(t.db), done.pseudonym).length).toBeGreaterThan(10);
    await expectBooksClean(deps);
  });
});
