import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import { seededRng } from '../../src/rng.js';
import { ROUNDS } from '../../utils/games/roundStore.js';
import { HOLDS, OPEN_HOLD_STATES } from '../../utils/money/holds/holdStore.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import { PER_ACCOUNT_IN_FLIGHT } from '../../utils/money/ledger/ledger.js';
import { PLACEMENTS } from '../../utils/place/placementStore.js';
import { placementId } from '../../utils/place/placements.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { type LoggingProcess, PROCESS_TEST_TIMEOUT_MS, startNode } from '../support/nodeProcess.js';
import type { ShardAction, ShardAnswer, ShardResult, TwoShardsPlan } from '../support/twoShardsChild.js';
import { waitFor } from '../support/waitFor.js';

const t = useTestDatabase('two_shards');
/** Races, each with its own seed: one in the suite; `npm run test:two-shards` runs more. */
const RACES = Number(process.env.TWO_SHARDS_RACES ?? 1);
const MEMBER = '870000000000000001';
const PAYEES = ['870000000000000002', '870000000000000003', '870000000000000004', '870000000000000005'];
/** Cookie actions of the member per shard (gives, coinflips, dice), fired at once. */
const COOKIE_ACTIONS = 60;
const PLACEMENTS_PER_SHARD = 16;
/** Ids sent to both shards at once, per kind: a retried interaction reaching both. */
const SHARED = 5;
/** Gives of 10 to 40 Cookies; bets of 10 to 30. */
const LARGEST = 40;
/**
 * Every debit of the member waits on its document until both shards hold some there. The
 * balance covers one shard's gate full of the largest and more, so the other shard always gets
 * debits in too, and the debits held then are at least (COOKIES - LARGEST) / LARGEST, more than
 * one process's gate admits. The gives alone do not spend it all: the games have their part.
 */
const COOKIES = (PER_ACCOUNT_IN_FLIGHT + 18) * LARGEST;
const PIXEL_COST = 100 * 1_000;
/** Place points for 15 pixels, of the 37 placements asked (16 per shard, 5 shared). */
const POINTS = 15 * PIXEL_COST;
/** Starting two processes on a machine busy with other suites takes tens of seconds. */
const CHILD_DEADLINE_MS = 90_000;

const shardId = (shard: number, what: string, i: number) => `s${shard}:${what}:${i}`;

/** One shard's actions: its own, and the shared ones at the same seeded places in both. */
function planActions(seed: string, shard: number, shared: ShardAction[]): ShardAction[] {
  const rng = seededRng(`${seed}:${shard}`);
  const actions: ShardAction[] = [];
  for (let i = 0; i < COOKIE_ACTIONS; i++) {
    const roll = rng.int(0, 20);
    if (roll < 9) {
      const to = PAYEES[rng.int(0, PAYEES.length)] as string;
      const amount = 10 + rng.int(0, LARGEST - 9);
      actions.push({ kind: 'give', id: shardId(shard, 'give', i), to, amount, opened: false });
    } else {
      const kind = roll < 15 ? 'coinflip' : 'dice';
      actions.push({ kind, id: shardId(shard, 'round', i), bet: 10 + rng.int(0, 21) });
    }
  }
  for (let i = 0; i < PLACEMENTS_PER_SHARD; i++)
    actions.push({ kind: 'place', id: shardId(shard, 'px', i), x: i, y: 10 + shard, color: rng.int(0, 32) });
  actions.push({ kind: 'collect', id: shardId(shard, 'collect', 0) });
  for (const action of shared) actions.splice(rng.int(0, actions.length + 1), 0, action);
  return actions;
}

function sharedActions(seed: string): ShardAction[] {
  const rng = seededRng(`${seed}:shared`);
  return Array.from({ length: SHARED }, (_, i): ShardAction[] => [
    {
      kind: 'give',
      id: `both:give:${i}`,
      to: PAYEES[i % PAYEES.length] as string,
      amount: LARGEST,
      opened: true,
    },
    { kind: 'coinflip', id: `both:round:${i}`, bet: 10 + rng.int(0, 21) },
    { kind: 'place', id: `both:px:${i}`, x: 100 + i, y: 100, color: rng.int(0, 32) },
  ]).flat();
}

function startShard(plan: TwoShardsPlan): LoggingProcess {
  return startNode(
    ['test/support/twoShardsChild.ts', JSON.stringify(plan)],
    {},
    { watch: 'stdout', stdin: true },
  );
}

function tell(shards: LoggingProcess[], word: string): void {
  for (const shard of shards) shard.child.stdin?.write(`${word}\n`);
}

describe('one member on two shards at once', () => {
  beforeEach(() => clearDatabase(t.db));

  for (let race = 1; race <= RACES; race++) {
    it(
      `GIVEN a member acting through two bot processes at once until the balance runs out THEN nothing is paid twice, no balance goes below zero, and the books balance (seed ${race})`,
      () => runRace(`two-shards:${race}`),
      PROCESS_TEST_TIMEOUT_MS,
    );
  }
});

async function runRace(seed: string): Promise<void> {
  const parent = makeBotDeps(t);
  const { deps } = parent;
  await deps.services.vault.fund({ opId: 'fund', adminId: 'admin', amount: 1_000_000, reason: '' });
  await deps.services.cookies.grant({
    opId: 'grant',
    adminId: 'admin',
    to: MEMBER,
    amount: COOKIES,
    reason: '',
  });
  await deps.services.place.grant({
    opId: 'points',
    moderatorId: 'mod',
    to: MEMBER,
    amount: POINTS,
    reason: '',
  });
  expect(await deps.services.place.pixelCost()).toBe(PIXEL_COST);
  const shared = sharedActions(seed);
  for (const give of shared)
    if (give.kind === 'give')
      await deps.services.cookies.openGive({
        promptId: give.id,
        from: MEMBER,
        to: give.to,
        amount: give.amount,
      });

  const plans = [0, 1].map((shard) => ({
    uri: t.uri,
    dbName: t.name,
    shard,
    seed,
    member: MEMBER,
    actions: planActions(seed, shard, shared),
  }));
  const shards = plans.map(startShard);
  try {
    await Promise.all(shards.map((shard) => shard.waitForLog('READY', CHILD_DEADLINE_MS)));
    tell(shards, 'GO');
    const holding = await Promise.all(
      shards.map(async (shard) => (await shard.waitForLog(/HOLDING (\S+)\n/, CHILD_DEADLINE_MS))[1]),
    );
    // Both processes hold debits of the one member on its document at once, more of them
    // than one process's gate admits: each process has its own gate.
    const markers = await waitFor(
      async () => {
        const held = (await t.cols.cookies.findOne({ _id: MEMBER }))?.pendingOps ?? [];
        return held.length > PER_ACCOUNT_IN_FLIGHT ? held : null;
      },
      { timeoutMs: CHILD_DEADLINE_MS, what: `more than ${PER_ACCOUNT_IN_FLIGHT} markers on the member` },
    );
    expect(holding.filter((op) => markers.some((m) => m.op === op))).toEqual(holding);
    tell(shards, 'RELEASE');
    const results = await Promise.all(
      shards.map(async (shard) => {
        const line = await shard.waitForLog(/RESULT (.*)\n/, CHILD_DEADLINE_MS);
        expect(await shard.exited()).toEqual({ code: 0, signal: null });
        return JSON.parse(line[1] as string) as ShardResult;
      }),
    );
    if (process.env.TWO_SHARDS_DEBUG) report(results, markers.length);
    await expectBooksHold(parent, results);
  } finally {
    await Promise.all(shards.map((shard) => shard.kill('SIGKILL')));
  }
}

async function expectBooksHold(
  { deps, clock }: ReturnType<typeof makeBotDeps>,
  results: ShardResult[],
): Promise<void> {
  const [a, b] = results as [ShardResult, ShardResult];
  const answers = results.flatMap((r) => r.answers);
  // The two bursts overlapped.
  expect(a.startedAt).toBeLessThan(b.endedAt);
  expect(b.startedAt).toBeLessThan(a.endedAt);

  // Every refusal is one a member may meet; the balance ran out for both currencies. An id sent
  // to both may also hear what the other process decided: its round called off before the
  // stake arrived, or still in flight after the wait for the other attempt.
  const refused = (x: ShardAnswer) => !x.ok && !x.code?.startsWith('INSUFFICIENT_');
  const allowed = (x: ShardAnswer) =>
    x.code === 'COOLDOWN_ACTIVE' ||
    (x.id.startsWith('both:') && (x.code === 'ACCOUNT_CLOSED' || x.code === 'OPERATION_IN_PROGRESS'));
  expect(answers.filter((x) => refused(x) && !allowed(x))).toEqual([]);
  const refusals = new Set(answers.map((x) => x.code));
  expect(refusals).toContain('INSUFFICIENT_COOKIES');
  expect(refusals).toContain('INSUFFICIENT_PLACE_POINTS');
  for (const r of results) expect(r.answers.some((x) => x.ok && x.kind !== 'collect')).toBe(true);

  // The books: every stored balance is what its events explain, no marker or stuck operation left.
  const report = await checkInvariants(t.cols);
  expect(report.problems).toEqual([]);
  expect(await t.cols.ledgerStuckOps.countDocuments()).toBe(0);
  expect(await t.cols.cookies.countDocuments({ pendingOps: { $exists: true } })).toBe(0);
  expect(await t.cols.placeWallets.countDocuments({ pendingOps: { $exists: true } })).toBe(0);
  expect(await t.db.collection(HOLDS).countDocuments({ state: { $in: [...OPEN_HOLD_STATES] } })).toBe(0);
  expect(await t.db.collection(ROUNDS).countDocuments({ status: { $in: ['opening', 'settling'] } })).toBe(0);

  // The member: the balance is the start plus the credits minus the debits its events record,
  // never below zero, and every change that stayed applied has exactly one event (an account
  // counts each change it takes and each one undone), so no operation applied twice.
  for (const [currency, collection, field] of [
    ['cookies', t.cols.cookies, 'cookies'],
    ['place', t.cols.placeWallets, 'balance'],
  ] as const) {
    const doc = (await collection.findOne({ _id: MEMBER })) as unknown as Record<string, number>;
    const events = await t.cols.ledgerEvents.find({ currency, account: MEMBER }).toArray();
    const credits = events.filter((e) => e.leg === 'credit').reduce((sum, e) => sum + e.amount, 0);
    const debits = events.filter((e) => e.leg === 'debit').reduce((sum, e) => sum + e.amount, 0);
    expect({ currency, balance: doc[field] }).toEqual({ currency, balance: credits - debits });
    expect(doc[field]).toBeGreaterThanOrEqual(0);
    expect(events.filter((e) => e.balanceAfter !== null && e.balanceAfter < 0)).toEqual([]);
    expect(events).toHaveLength((doc.changes ?? 0) - (doc.undone ?? 0));
    expect(new Set(events.map((e) => `${e.opId}:${e.leg}`)).size).toBe(events.length);
  }

  // Gives: each given at most once; a shared prompt confirmed by both processes is paid once and
  // answered "given" by both, the second as the ledger's replay of the first.
  for (const id of new Set(answers.filter((x) => x.kind === 'give').map((x) => x.id))) {
    const given = answers.filter((x) => x.id === id && x.status === 'given');
    const recorded = await t.cols.ledgerEvents.countDocuments({ opId: `cookies.give:${id}` });
    expect({ id, recorded }).toEqual({ id, recorded: given.length > 0 ? 2 : 0 });
    expect(given.filter((x) => !x.replayed).length).toBeLessThanOrEqual(1);
  }

  // Place: exactly the 15 pixels the points buy, each paid once, a shared id painted once; the
  // sweep (the placements' timer, a minute and the grace later) finds each finished, pays nothing more.
  clock.advance(RECOVERY_GRACE_MS + 60_000);
  await deps.services.place.sweep();
  expect(
    await t.db.collection(PLACEMENTS).countDocuments({ status: { $in: ['debiting', 'allocated'] } }),
  ).toBe(0);
  const wallet = await t.cols.placeWallets.findOne({ _id: MEMBER });
  expect(wallet).toMatchObject({ balance: 0, spent: POINTS, placements: POINTS / PIXEL_COST });
  const painted = await t.db
    .collection<{ opId: string; owner: string }>('place_pixel_events')
    .find({ kind: 'place', owner: MEMBER })
    .toArray();
  expect(painted).toHaveLength(POINTS / PIXEL_COST);
  expect(new Set(painted.map((p) => p.opId)).size).toBe(painted.length);
  for (const x of answers.filter((y) => y.kind === 'place')) {
    const paid = painted.some((p) => p.opId === placementId(MEMBER, x.id));
    if (x.ok) expect({ id: x.id, paid }).toEqual({ id: x.id, paid: true });
    else if (!x.id.startsWith('both:')) expect({ id: x.id, paid }).toEqual({ id: x.id, paid: false });
  }
  expect(disagreements(answers.filter((x) => x.id.startsWith('both:') && x.kind !== 'give'))).toEqual([]);

  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
}

/** Shared ids a process answered "refused" although the other one applied them. */
function disagreements(shared: ShardAnswer[]): string[] {
  const byId = new Map<string, ShardAnswer[]>();
  for (const x of shared) byId.set(x.id, [...(byId.get(x.id) ?? []), x]);
  return [...byId].flatMap(([id, both]) =>
    both.some((x) => x.ok) && both.some((x) => !x.ok) ? [`${id}: ${JSON.stringify(both)}`] : [],
  );
}

function report(results: ShardResult[], heldAtOnce: number): void {
  for (const r of results) {
    const counts = new Map<string, number>();
    for (const x of r.answers) {
      const key = `${x.kind} ${x.ok ? (x.status ?? 'ok') : x.code}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    console.log(
      `shard ${r.shard}: ${r.endedAt - r.startedAt} ms, ${r.held} debits held`,
      Object.fromEntries(counts),
    );
  }
  console.log(`markers on the member's document while both shards held: ${heldAtOnce}`);
  console.log(
    results.flatMap((r) =>
      r.answers.filter((x) => x.id.startsWith('both:')).map((x) => ({ shard: r.shard, ...x })),
    ),
  );
}
