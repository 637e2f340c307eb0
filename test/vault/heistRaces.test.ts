import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { joinButton } from '../../commands/vault/heist.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { cryptoRng, type Rng } from '../../src/rng.js';
import { CookieEconomy } from '../../utils/money/cookieEconomy.js';
import { type HeistDoc, type HeistResult, HeistStore } from '../../utils/vault/heistStore.js';
import { HEIST_CLOSE_TASK, VaultService } from '../../utils/vault/vaultService.js';
import { fundVaultAndMembers, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { commandInvocation } from '../support/invocations.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { gate, pauseAt } from '../support/pause.js';
import { RecordingResponder } from '../support/recordingResponder.js';
import { within } from '../support/waitFor.js';

/*
 * The heist's timer resolving it while a last Join is pressed, and two processes resolving it
 * at once. A press either joins in time, and is part of the outcome, or is refused with its
 * stake untouched: never charged and left out. The outcome is applied once and told once.
 */

const t = useTestDatabase('heist_races');
const [LEADER, SECOND, LATE, LATER] = [
  '851000000000000001',
  '851000000000000002',
  '851000000000000003',
  '851000000000000004',
];
const MEMBERS = [LEADER, SECOND, LATE, LATER];
const CHANNEL = '861000000000000900';
const MESSAGE = '861000000000000901';
const VAULT = 200_000;
const success: Rng = { ...cryptoRng, int: (min) => min };

let nextId = 1;

async function setUp(rng: Rng = success) {
  const made = makeBotDeps(t, { rng });
  await fundVaultAndMembers(made.deps, VAULT, MEMBERS);
  return made;
}

/** A heist of LEADER and SECOND (stake 100) started in CHANNEL, its message known. */
async function heistOfTwo(deps: BotDeps): Promise<HeistDoc> {
  const heistId = `h${nextId++}`;
  const started = await deps.services.vault.startHeist({
    heistId,
    leader: LEADER,
    stake: 100,
    locale: 'en',
    channelId: CHANNEL,
  });
  await deps.services.vault.rememberMessage(started, MESSAGE);
  expect((await deps.services.vault.joinHeist(heistId, SECOND)).status).toBe('joined');
  return (await deps.services.vault.getHeist(heistId)) as HeistDoc;
}

async function balance(deps: BotDeps, account: string): Promise<number> {
  await deps.ledger.flush();
  return deps.ledger.balanceOf('cookies', account);
}

/** What each member must hold after the heist, given its outcome and whether they were charged at all. */
function expected(heist: HeistDoc, member: string): number {
  const r = heist.result as HeistResult;
  if (!r.crew.includes(member) || r.outcome === 'too_small') return 1_000;
  return r.outcome === 'success' ? 1_000 + r.share : 1_000 - heist.stake;
}

/** The heist settled once, coherently: its crew is the outcome's crew, every member holds what the outcome says. */
async function expectCoherent(deps: BotDeps, heistId: string): Promise<HeistDoc> {
  const heist = (await deps.services.vault.getHeist(heistId)) as HeistDoc;
  expect(heist.status).toBe('settled');
  expect(heist.crew.map((m) => m.userId).sort()).toEqual([...(heist.result?.crew ?? [])].sort());
  for (const member of MEMBERS) expect(await balance(deps, member), member).toBe(expected(heist, member));
  expect(await balance(deps, `pot:heist:${heistId}`)).toBe(0);
  const members = await Promise.all(MEMBERS.map((m) => balance(deps, m)));
  expect(members.reduce((a, b) => a + b, 0) + (await balance(deps, deps.ledger.houseAccountId))).toBe(
    VAULT + 4_000,
  );
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  return heist;
}

/** A press on the crew's Join button, as the runtime receives it. */
async function pressJoin(deps: BotDeps, heistId: string, userId: string): Promise<RecordingResponder> {
  const replies = new RecordingResponder();
  await new InteractionRuntime(deps, ASSEMBLY).dispatch(
    commandInvocation({
      kind: 'button',
      commandName: '',
      customId: joinButton.build({ heist: heistId }),
      messageId: MESSAGE,
      user: { id: userId, name: `m${userId.slice(-1)}` },
      channelId: CHANNEL,
    }),
    replies,
  );
  return replies;
}

/** A heist store whose `method` waits at a gate the test opens: a process slow at that write. */
function slowStore(method: 'fix' | 'markSettled') {
  const stopHere = gate();
  const store = new HeistStore(t.db);
  const original = store[method].bind(store) as (...args: unknown[]) => Promise<HeistDoc | null>;
  Object.assign(store, {
    [method]: async (...args: unknown[]) => {
      await stopHere.stop();
      return original(...args);
    },
  });
  return { store, reached: stopHere.reached, open: stopHere.open };
}

/** A vault service of its own over `deps` (another process), with `heists` as its store. */
function vaultOver(deps: BotDeps, heists: HeistStore): VaultService {
  return new VaultService({
    ...deps,
    economy: new CookieEconomy(deps.ledger),
    heists,
    reserve: deps.config.ledger.houseMinReserve,
  });
}

/** The heist timer's own work in `vault`, telling `told` what it would tell the channel. */
function closeTask(vault: VaultService, told: HeistDoc[]) {
  const [task] = vault.tasks(async (heist) => {
    told.push(heist);
  });
  return (heistId: string) =>
    (task as NonNullable<typeof task>).run(
      { heistId },
      { id: `${HEIST_CLOSE_TASK}:${heistId}`, dueAt: new Date(), attempt: 1 },
    );
}

describe('the last Join press against the heist timer', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a Join whose stake is halfway through the ledger WHEN the timer resolves the heist in another process THEN the press is told it set off, its stake comes back, and it is not in the outcome', async () => {
    const first = await setUp();
    const heist = await heistOfTwo(first.deps);
    const paused = pauseAt('debit.applied', 'heist.stake');
    const joiner = makeBotDeps(t, { hooks: paused.hooks, rng: success });
    const pressing = pressJoin(joiner.deps, heist._id, LATE);
    await within(paused.reached, "LATE's stake to reach the ledger");
    first.clock.advance(121_000);
    await first.deps.scheduler.runDue();
    paused.release();
    const replies = await within(pressing, 'the press to be answered');
    expect(replies.text()).toContain('This heist has already set off. Nothing moved.');
    const settled = await expectCoherent(first.deps, heist._id);
    expect(settled.result?.crew).toEqual([LEADER, SECOND]);
    expect(await balance(first.deps, LATE)).toBe(1_000);
  });

  it('GIVEN a Join that lands while the timer is fixing the outcome in another process THEN the joiner is part of the outcome, paid as the crew', async () => {
    const first = await setUp();
    const heist = await heistOfTwo(first.deps);
    const closer = makeBotDeps(t, { rng: success });
    closer.clock.advance(121_000);
    const slow = slowStore('fix');
    const closing = vaultOver(closer.deps, slow.store).closeHeist(heist._id);
    await within(slow.reached, 'the timer to fix the outcome');
    // The joiner's process still sees the heist open (its clock is a moment behind).
    const joined = await first.deps.services.vault.joinHeist(heist._id, LATE);
    slow.open();
    await within(closing, 'the timer to finish');
    const settled = await expectCoherent(first.deps, heist._id);
    expect(joined.status).toBe('joined');
    expect(settled.result?.crew).toEqual([LEADER, SECOND, LATE]);
    expect(await balance(first.deps, LATE)).toBe(1_000 + (settled.result?.share ?? 0));
  });

  it('GIVEN presses from two members at the very moment the timer resolves, 10 heists THEN each press is in the outcome or refused untouched', async () => {
    for (let round = 0; round < 10; round++) {
      await clearDatabase(t.db);
      const first = await setUp();
      const heist = await heistOfTwo(first.deps);
      const [late, later, closer] = [
        makeBotDeps(t, { rng: success }),
        makeBotDeps(t, { rng: success }),
        makeBotDeps(t, { rng: success }),
      ];
      for (const p of [late, later]) p.clock.advance(119_999);
      closer.clock.advance(120_000);
      const [a, b] = await Promise.all([
        pressJoin(late.deps, heist._id, LATE),
        pressJoin(later.deps, heist._id, LATER),
        closer.deps.scheduler.runDue(),
      ]);
      const settled = await expectCoherent(first.deps, heist._id);
      for (const [member, replies] of [
        [LATE, a],
        [LATER, b],
      ] as const) {
        if (settled.result?.crew.includes(member)) {
          expect(replies.sent[0]?.update).toBe(true);
          continue;
        }
        // Left out: refused (usually "already set off"; on a slow machine a press may also
        // time out first), and in either case not one Cookie of its stake is gone.
        expect(replies.sent[0]?.ephemeral, replies.text()).toBe(true);
        expect(await balance(first.deps, member)).toBe(1_000);
      }
    }
  });
});

describe('two processes resolving the same heist', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN the timer running in two processes (the first slow past its lease) THEN the heist pays out once and its outcome is told once', async () => {
    const first = await setUp();
    const heist = await heistOfTwo(first.deps);
    const told: HeistDoc[] = [];
    const a = makeBotDeps(t, { rng: success });
    const b = makeBotDeps(t, { rng: success });
    for (const p of [a, b]) p.clock.advance(121_000);
    const slow = slowStore('markSettled');
    const running = closeTask(vaultOver(a.deps, slow.store), told)(heist._id);
    await within(slow.reached, 'the first process to reach the end');
    await closeTask(vaultOver(b.deps, new HeistStore(t.db)), told)(heist._id);
    slow.open();
    await within(running, 'the first process to finish');
    const settled = await expectCoherent(first.deps, heist._id);
    expect(settled.result?.outcome).toBe('success');
    expect(told).toHaveLength(1);
    expect(told[0]?.status).toBe('settled');
  });

  it('GIVEN the real timers of three processes at once, with a heist channel set THEN the crew message is edited with the outcome and the heist channel gets exactly one post', async () => {
    const first = await setUp();
    await first.deps.runtimeConfig.set('vault.heist_channel', '861000000000000999', 'admin');
    const heist = await heistOfTwo(first.deps);
    const processes = [
      makeBotDeps(t, { rng: success }),
      makeBotDeps(t, { rng: success }),
      makeBotDeps(t, { rng: success }),
    ];
    for (const p of processes) p.clock.advance(121_000);
    await Promise.all(processes.map((p) => p.deps.scheduler.runDue()));
    await expectCoherent(first.deps, heist._id);
    const posts = processes.flatMap((p) => p.transport.posts);
    expect(posts).toHaveLength(1);
    expect(posts[0]?.channelId).toBe('861000000000000999');
    const edits = processes.flatMap((p) => p.transport.edits);
    expect(edits.length).toBeGreaterThanOrEqual(1);
    for (const edit of edits) {
      expect(edit).toMatchObject({ channelId: CHANNEL, messageId: MESSAGE });
      expect(edit.post.embeds?.[0]?.description).toContain('💰');
      expect((edit.post as { buttons?: unknown[] }).buttons ?? []).toEqual([]);
    }
  });
});
