import type { Clock } from '../../src/clock.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { PLACE_KINDS, type PlaceEconomy } from '../money/placeEconomy.js';
import { weightedDraw } from './draw.js';
import type { HuntStore, TaskDoc, WindowDoc } from './huntStore.js';
import { drawReward, progressReward, type RewardSettings } from './rewards.js';
import { score } from './scoring.js';
import type { TipDoc } from './tipStore.js';

export interface Drawn {
  tip: TipDoc;
  score: number;
  improvedFrom: number | null;
  progressMilli: number;
  drawMilli: number;
}

interface WindowDrawDeps {
  store: HuntStore;
  economy: PlaceEconomy;
  runtimeConfig: RuntimeConfig;
  clock: Clock;
  rng: Rng;
  /** Who is paid for an identity's rewards, resolved at the moment of the reward (workers: their owner). */
  ownerOf?: (identity: string) => Promise<string>;
  /** The hunt's task as it is now (created on first use). */
  task(): Promise<TaskDoc>;
  /** The hunt's reward settings as they are now. */
  settings(): Promise<RewardSettings>;
}

/** The target of a round, current or past (null if unknown). */
export function targetOf(task: TaskDoc, round: number): number[] | null {
  if (round === task.round) return task.target;
  return task.past?.find((p) => p.round === round)?.target ?? null;
}

/**
 * A window's draw (ECONOMY.md, "The hunt: rewards exactly once"): the drawn tips fixed once by one guarded update, then each
 * drawn tip scored on its round's target and paid its draw bonus and its progress reward.
 */
export class WindowDraw {
  constructor(private readonly deps: WindowDrawDeps) {}

  /**
   * Draws a window (its timer; safe to run again): the draw is fixed once, then each drawn
   * tip is evaluated and rewarded with operation ids from task, round, identity and sequence.
   */
  async closeWindow(windowId: string): Promise<{ window: WindowDoc; drawn: Drawn[] } | null> {
    let window = await this.deps.store.getWindow(windowId);
    if (!window) return null;
    if (window.status === 'open') {
      const [count, weight] = await Promise.all([
        this.deps.runtimeConfig.get('hunt_draws_per_window'),
        this.deps.runtimeConfig.get('beacon_bonus_weight'),
      ]);
      const tips = await this.deps.store.tips.ofWindow(window.round, window.index);
      const entries = tips.map((t) => ({
        id: t._id,
        weight: t.path !== null && t.path === window?.bonusPath ? weight : 1,
      }));
      const drawn = weightedDraw(entries, count, (min, max) => this.deps.rng.int(min, max)).map((e) => e.id);
      window =
        (await this.deps.store.closeWindow(windowId, drawn)) ?? (await this.deps.store.getWindow(windowId));
      if (!window) return null;
      await this.deps.store.tips.mark(window.drawn ?? [], 'drawn', window.round, window.index);
    }
    const task = await this.deps.task();
    const settings = await this.deps.settings();
    const weight = await this.deps.runtimeConfig.get('beacon_bonus_weight');
    const drawn: Drawn[] = [];
    for (const id of window.drawn ?? []) {
      const tip = await this.deps.store.tips.get(id);
      if (!tip) continue;
      drawn.push(
        await this.#evaluate(
          tip,
          task,
          settings,
          tip.path !== null && tip.path === window.bonusPath ? weight : 1,
        ),
      );
    }
    return { window, drawn };
  }

  async #evaluate(tip: TipDoc, task: TaskDoc, settings: RewardSettings, pathWeight: number): Promise<Drawn> {
    const owner = this.deps.ownerOf ? await this.deps.ownerOf(tip.identity) : tip.identity;
    // Scored on its own round's target, also when a reroll came before the window's draw.
    const target = targetOf(task, tip.round);
    const value = target ? score(tip.guess, target) : 0;
    await this.deps.store.tips.setScore(tip._id, value);
    const key = `${tip.round}:${tip.identity}:${tip.sequence}`;

    // The draw bonus: idempotent over round, identity and sequence.
    const draw = drawReward(pathWeight, settings);
    if (draw.milli > 0) {
      const opId = `hunt.draw:${key}`;
      await this.deps.economy.reward(owner, {
        opId,
        amount: draw.milli,
        kind: PLACE_KINDS.draw,
        source: tip.identity,
        reason: `drawn tip ${key}`,
      });
      await this.deps.store.addBonus({
        _id: opId,
        kind: 'draw',
        source: tip.identity,
        owner,
        milli: draw.milli,
        multiplier: draw.multiplier,
        units: 1,
        detail: `round ${tip.round}, sequence ${tip.sequence}${pathWeight > 1 ? ', boosted path' : ''}`,
        tip: { round: tip.round, sequence: tip.sequence, bonusPath: pathWeight > 1 },
        at: this.deps.clock.now(),
      });
    }

    // The progress reward: the new best and its reward in one write, then the payment.
    let improvedFrom: number | null = null;
    let progressMilli = 0;
    for (let tries = 0; tries < 5 && target; tries++) {
      const best = await this.deps.store.best(tip.round, tip.identity);
      if (best?.pending) await this.#payProgress(best.round, best.identity, best.pending);
      const from = best?.best ?? 0;
      if (value <= from) break;
      const milli = progressReward(value - from, settings);
      const pending = { opId: `hunt.progress:${key}`, from, to: value, milli, sequence: tip.sequence, owner };
      if (await this.deps.store.raiseBest(tip.round, tip.identity, best ? from : null, value, pending)) {
        await this.#payProgress(tip.round, tip.identity, pending);
        improvedFrom = from;
        progressMilli = milli;
        break;
      }
    }
    return {
      tip: { ...tip, score: value },
      score: value,
      improvedFrom,
      progressMilli,
      drawMilli: draw.milli,
    };
  }

  async #payProgress(
    round: number,
    identity: string,
    pending: { opId: string; from: number; to: number; milli: number; sequence: number; owner: string },
  ): Promise<void> {
    if (pending.milli > 0) {
      await this.deps.economy.reward(pending.owner, {
        opId: pending.opId,
        amount: pending.milli,
        kind: PLACE_KINDS.progress,
        source: identity,
        reason: `best ${pending.from} → ${pending.to}`,
      });
    }
    await this.deps.store.addProgress({
      _id: pending.opId,
      identity,
      owner: pending.owner,
      round,
      sequence: pending.sequence,
      from: pending.from,
      to: pending.to,
      milli: pending.milli,
      at: this.deps.clock.now(),
    });
    await this.deps.store.clearPending(round, identity, pending.opId);
  }
}
