import { HOUR_MS, MINUTE_MS } from '../src/clock.js';

export { DAY_MS, HOUR_MS } from '../src/clock.js';
/** Simulated time moves in steps of two minutes: the active-time reward's largest gap. */
export const STEP_MS = 2 * MINUTE_MS;
export const STEPS_PER_HOUR = HOUR_MS / STEP_MS;
