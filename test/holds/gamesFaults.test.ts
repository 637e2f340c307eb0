import { describe, expect, inject, it } from 'vitest';
import { runGamesFaults } from '../support/gamesFaultRun.js';

/**
 * A short run of the games fault suite (longer: `npm run test:games-faults -- --seed n --rounds N`):
 * member processes, a timekeeper hours ahead and a kill in most rounds; nothing may be stranded.
 */
describe('the games fault suite', () => {
  it('GIVEN members, racing timers and a killed process in each round THEN every owner ends holding nothing and the books balance', async () => {
    const seed = 11;
    const r = await runGamesFaults({
      serverUri: inject('mongoUri'),
      dbName: `t_games_faults_${seed}`,
      seed,
      rounds: 2,
    });
    console.log(
      `games-faults (seed ${seed}; longer: npm run test:games-faults -- --seed ${seed} --rounds 40): rounds=${r.rounds} kills=${r.kills} races=${r.races} tournaments paid=${r.tournaments.paid} called-off=${r.tournaments.calledOff} stranded=${r.stranded} violations=${r.violations.length}`,
    );
    expect(r.violations).toEqual([]);
    expect(r.stranded).toBe(0);
    expect(r.rounds).toBe(2);
    expect(r.races).toBeGreaterThan(0);
  }, 600_000);
});
