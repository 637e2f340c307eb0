/** Simulated time moves in steps of two minutes: the active-time reward's largest gap. */
export const STEP_MS = 2 * 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const STEPS_PER_HOUR = HOUR_MS / STEP_MS;
