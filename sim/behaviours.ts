import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { GAME_NAMES } from '../utils/games/houseGames/index.js';

/** [low, high]: each member draws its own value in this range once. */
const range = z.tuple([z.number().min(0), z.number().min(0)]).refine(([low, high]) => low <= high, {
  message: 'low must not exceed high',
});

/**
 * How a simulated member plays. `honest` does what the rates say; the greedy ones:
 * - `richest_thief` steals only from the richest member it may rob, whenever its cooldown allows;
 * - `martingale` plays coinflip and doubles its bet after every loss (back to 1 % of its balance
 *   after a win);
 * - `time_farmer` hunts only for active time: it keeps pinging and never tips;
 * - `worker_farmer` hunts with `workers` linked workers, every one pinging and tipping.
 */
export const STRATEGIES = ['honest', 'richest_thief', 'martingale', 'time_farmer', 'worker_farmer'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** What a simulated member may do besides collecting: every house game (their registry), and the rest. */
export const ACTIONS = [...GAME_NAMES, 'give', 'steal', 'heist', 'poker', 'shop', 'trade'] as const;
export type Action = (typeof ACTIONS)[number];

const archetype = z.object({
  name: z.string().min(1),
  /** The part of the members who are this kind (all shares add up to 1). */
  share: z.number().min(0).max(1),
  /** Days a week with a session (7: every day; 1.5: on about three days in two weeks). */
  daysPerWeek: z.number().min(0).max(7),
  /** How long a session lasts, in hours, and the hour of day (UTC) it may start. */
  sessionHours: range,
  startHour: range,
  strategy: z.enum(STRATEGIES),
  /** Hunts while active: a tip every window and an activity ping every step. */
  hunts: z.boolean(),
  /** The part of its days a hunter spends hunting (the whole session on those days). */
  huntShare: z.number().min(0).max(1).default(1),
  /** 0: guesses at random; 1: guesses the target. */
  skill: range,
  /** How often per active hour each action is tried. Collecting happens whenever it is due. */
  rates: z.partialRecord(z.enum(ACTIONS), z.number().min(0)),
  /** Workers linked and hunting alongside (the worker farmer's; at most 10 per member). */
  workers: z.number().int().min(0).max(10).default(0),
  /**
   * Cookies a member holds when the run starts (each draws its own in this range): a mature
   * server, whose members saved for months, rather than one opened today.
   */
  startingCookies: range.default([0, 0]),
  /** A bet is this percentage of the balance (within the games' limits). */
  betPct: z.number().min(0).max(100),
});
export type Archetype = z.infer<typeof archetype>;

export const behavioursSchema = z.object({
  operator: z.object({
    /** Cookies the operator puts in the vault at the start, and the reserve it must keep. */
    vaultFund: z.number().int().min(0),
    reserve: z.number().int().min(0),
    /**
     * Moderators' event prizes: so many grants a day to members active that day; with
     * `perMembers`, that many for every `perMembers` members (a server of a tenth the size
     * runs a tenth of the events; a fraction is a chance of one more).
     */
    cookieGrantsPerDay: z.object({
      count: z.number().int().min(0),
      amount: z.number().int().min(1),
      perMembers: z.number().int().min(1).optional(),
    }),
    placeGrantsPerDay: z.object({
      count: z.number().int().min(0),
      points: z.number().int().min(1),
      perMembers: z.number().int().min(1).optional(),
    }),
    /**
     * An admin rerolls the hunt's target every so many days (at midnight; 0: never): a new
     * round, where every hunter's best starts again and score progress pays again.
     */
    huntRerollEveryDays: z.number().int().min(0).default(0),
    /** The server's shop, stocked at the start: roles (held `hours`, or for good) and items with an effect. */
    shop: z
      .object({
        items: z.array(
          z.object({
            name: z.string().min(1).max(40),
            price: z.number().int().min(1),
            role: z.boolean().default(false),
            effect: z.enum(['padlock', 'streak_shield', 'custom']).optional(),
            hours: z.number().int().min(1).optional(),
            stock: z.number().int().min(0).optional(),
            perMember: z.number().int().min(1).optional(),
            /** A role's income: Cookies paid to each holder every `everyH` hours. */
            income: z.object({ amount: z.number().int().min(1), everyH: z.number().int().min(1) }).optional(),
          }),
        ),
      })
      .default({ items: [] }),
  }),
  archetypes: z
    .array(archetype)
    .min(1)
    .refine((list) => Math.abs(list.reduce((sum, a) => sum + a.share, 0) - 1) < 1e-6, {
      message: 'the shares must add up to 1',
    }),
});
export type Behaviours = z.infer<typeof behavioursSchema>;

/** Reads and checks a behaviours file (a wrong field names itself). */
export function loadBehaviours(path: string): Behaviours {
  const parsed = behavioursSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    throw new Error(
      `${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}
