import { beforeEach, describe, expect, it } from 'vitest';
import type { BotDeps } from '../../src/interactions/types.js';
import { cryptoRng, type Rng } from '../../src/rng.js';
import type { HeistDoc } from '../../utils/vault/heistStore.js';
import { fundVaultAndMembers, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('heist');
const CREW = ['850000000000000001', '850000000000000002', '850000000000000003', '850000000000000004'];
const [LEADER, SECOND, THIRD, FOURTH] = CREW as [string, string, string, string];
const success: Rng = { ...cryptoRng, int: (min) => min };
const failure: Rng = { ...cryptoRng, int: (_min, max) => max - 1 };

let nextId = 1;

async function setUp(rng: Rng, vault = 200_000) {
  const made = makeBotDeps(t, { rng });
  await fundVaultAndMembers(made.deps, vault, CREW);
  return made;
}

async function balance(deps: BotDeps, account: string): Promise<number> {
  await deps.ledger.flush();
  return deps.ledger.balanceOf('cookies', account);
}

async function startWithCrew(deps: BotDeps, members: string[], stake = 100): Promise<HeistDoc> {
  const heistId = `h${nextId++}`;
  await deps.services.vault.startHeist({ heistId, leader: members[0] as string, stake, locale: 'en' });
  for (const member of members.slice(1))
    expect((await deps.services.vault.joinHeist(heistId, member)).status).toBe('joined');
  return (await deps.services.vault.getHeist(heistId)) as HeistDoc;
}

describe('the vault heist', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a crew of three that succeeds THEN each gets their stake back plus an equal share of the loot', async () => {
    const { deps, clock } = await setUp(success);
    const heist = await startWithCrew(deps, [LEADER, SECOND, THIRD]);
    expect(await balance(deps, LEADER)).toBe(900);
    clock.advance(120_000);
    expect(await deps.scheduler.runDue()).toBeGreaterThanOrEqual(1);
    const closed = (await deps.services.vault.getHeist(heist._id)) as HeistDoc;
    // The loot is the least of 2 % of the vault (4,000), the cap (5,000) and 3 × the stakes (900).
    expect(closed).toMatchObject({
      status: 'settled',
      result: { outcome: 'success', share: 300, loot: 900, chancePct: 25 },
    });
    for (const member of [LEADER, SECOND, THIRD]) expect(await balance(deps, member)).toBe(1_000 + 300);
    expect(await balance(deps, deps.ledger.houseAccountId)).toBe(200_000 - 900);
    expect(await balance(deps, `pot:heist:${heist._id}`)).toBe(0);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a crew that is caught THEN their stakes go to the vault', async () => {
    const { deps, clock } = await setUp(failure);
    const heist = await startWithCrew(deps, [LEADER, SECOND, THIRD, FOURTH], 250);
    clock.advance(121_000);
    await deps.scheduler.runDue();
    expect(await deps.services.vault.getHeist(heist._id)).toMatchObject({
      result: { outcome: 'failure', crew: CREW, chancePct: 30 },
    });
    for (const member of CREW) expect(await balance(deps, member)).toBe(750);
    expect(await balance(deps, deps.ledger.houseAccountId)).toBe(201_000);
    const status = await deps.services.vault.status();
    expect(status.flows).toContainEqual({ group: 'heists', in: 1_000, out: 0, count: 4 });
    expect(status.lastHeist?._id).toBe(heist._id);
  });

  it('GIVEN a crew below the minimum THEN the heist is called off and every stake comes back', async () => {
    const { deps, clock } = await setUp(success);
    const heist = await startWithCrew(deps, [LEADER]);
    clock.advance(120_000);
    await deps.scheduler.runDue();
    expect(await deps.services.vault.getHeist(heist._id)).toMatchObject({
      status: 'settled',
      result: { outcome: 'too_small' },
    });
    expect(await balance(deps, LEADER)).toBe(1_000);
    expect(await balance(deps, deps.ledger.houseAccountId)).toBe(200_000);
  });

  it('GIVEN three bot processes closing the same heist at once, after a restart THEN it pays out exactly once', async () => {
    const first = await setUp(success);
    const heist = await startWithCrew(first.deps, [LEADER, SECOND]);
    // The process that started it is gone; three others, with their own clocks, run its timer.
    const processes = [
      makeBotDeps(t, { rng: success }),
      makeBotDeps(t, { rng: failure }),
      makeBotDeps(t, { rng: success }),
    ];
    for (const p of processes) p.clock.advance(24 * 3_600_000);
    await Promise.all(
      processes.flatMap((p) => [
        p.deps.scheduler.runDue(),
        p.deps.services.vault.closeHeist(heist._id).catch(() => null),
      ]),
    );
    const closed = (await first.deps.services.vault.getHeist(heist._id)) as HeistDoc;
    expect(closed.status).toBe('settled');
    const won = closed.result?.outcome === 'success' ? (closed.result.share ?? 0) : -100;
    for (const member of [LEADER, SECOND]) expect(await balance(first.deps, member)).toBe(1_000 + won);
    expect(await balance(first.deps, first.deps.ledger.houseAccountId)).toBe(200_000 - 2 * won);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN joins that cannot count (twice, too late, too poor, crew full) THEN each says why and nothing moves', async () => {
    const { deps, clock } = await setUp(success);
    await deps.runtimeConfig.set('vault.heist_max_crew', '2', 'admin');
    const heist = await startWithCrew(deps, [LEADER, SECOND]);
    expect((await deps.services.vault.joinHeist(heist._id, SECOND)).status).toBe('already');
    expect((await deps.services.vault.joinHeist(heist._id, THIRD)).status).toBe('full');
    await deps.runtimeConfig.set('vault.heist_max_crew', '10', 'admin');
    const poor = '850000000000000099';
    await expect(deps.services.vault.joinHeist(heist._id, poor)).rejects.toMatchObject({
      code: 'INSUFFICIENT_COOKIES',
      context: { needed: 100 },
    });
    clock.advance(120_000);
    expect((await deps.services.vault.joinHeist(heist._id, FOURTH)).status).toBe('closed');
    expect(await balance(deps, THIRD)).toBe(1_000);
    expect(await balance(deps, FOURTH)).toBe(1_000);
    expect(await deps.services.vault.getHeist(heist._id)).toMatchObject({
      crew: [{ userId: LEADER }, { userId: SECOND }],
    });
  });

  it('GIVEN a heist just started THEN another is refused with when the next may start (one heist cooldown per server)', async () => {
    const { deps, clock } = await setUp(success);
    await startWithCrew(deps, [LEADER]);
    await expect(
      deps.services.vault.startHeist({ heistId: 'second', leader: SECOND, stake: 100, locale: 'en' }),
    ).rejects.toMatchObject({
      code: 'HEIST_NOT_YET',
      context: { retryAt: clock.now().getTime() + 3_600_000 },
    });
    expect(await balance(deps, SECOND)).toBe(1_000);
    await expect(
      deps.services.vault.startHeist({ heistId: 'small', leader: SECOND, stake: 10, locale: 'en' }),
    ).rejects.toMatchObject({ code: 'HEIST_STAKE_TOO_SMALL', context: { min: 50, stake: 10 } });
  });
});
