import type { Clock } from '../../src/clock.js';
import { invalidInputText } from '../../src/errors.js';
import type { Scheduler } from '../../src/scheduler/scheduler.js';
import type { Changes, PlaceBoard } from './board.js';
import { BLANK } from './palette.js';
import type { PixelEventDoc } from './pixelHistoryStore.js';
import {
  type Grief,
  griefOf,
  middleOf,
  nearestWrong,
  type PixelChange,
  type Progress,
  quantize,
  type RgbaImage,
  templateProgress,
  type WrongPixel,
} from './templateArt.js';
import { artOf, type TemplateDoc, type TemplateStore } from './templateStore.js';

/** At most this many templates, each named in at most this many characters, each at most this many pixels a side. */
export const MAX_TEMPLATES = 50;
export const MAX_TEMPLATE_NAME = 32;
export const MAX_TEMPLATE_SIDE = 512;
/** The largest image file a template is made from. */
export const MAX_TEMPLATE_BYTES = 2 * 1024 * 1024;

export const GUARD_TASK = 'place.template_guard';
/**
 * A burst of painting over a template ends when nobody painted over any template for this
 * long: its alert goes out then, one per template, however many painters took part.
 */
export const GRIEF_QUIET_MS = 30_000;
/** A burst that goes on and on is told at least this often. */
export const GRIEF_MAX_BURST_MS = 5 * 60_000;
/** The most changes one run of the check reads; the rest wait for the next run. */
const GUARD_BATCH = 5_000;

interface TemplateDeps {
  templates: TemplateStore;
  scheduler: Scheduler;
  clock: Clock;
  size(): Promise<{ width: number; height: number }>;
  board(): Promise<PlaceBoard>;
  /** The changes feed up to the watermark (never past a revision still being written). */
  changesAfter(after: number, limit: number): Promise<Changes>;
  /** The newest event of a pixel below a revision (what it showed before that revision). */
  eventBefore(x: number, y: number, revision: number): Promise<PixelEventDoc | null>;
  /** The revision every settled change is below or at. */
  advance(): Promise<number>;
}

/** Who asks to remove a template: its creator, a moderator, or a holder of the template role may. */
export interface TemplateActor {
  id: string;
  mayManage: boolean;
}

/** What the grief check found: the alerts to send for the stretch (from, to], or when to look again. */
export type GriefReport =
  | { kind: 'none'; from: number; to: number; more: boolean }
  | { kind: 'later'; at: Date }
  | {
      kind: 'alerts';
      from: number;
      to: number;
      more: boolean;
      alerts: { template: TemplateDoc; grief: Grief }[];
    };

/**
 * Templates: a faction's artwork at a place on the canvas, its progress, the pixels to fix next,
 * and the grief check that tells the faction's channel when someone paints over it.
 */
export class PlaceTemplates {
  /** The last guard bucket this process scheduled: one scheduler write per bucket, not per placement. */
  #scheduled = -1;
  /** Whether any template exists, as this process last read it (and when). */
  #any: { value: boolean; at: number } | null = null;

  constructor(private readonly deps: TemplateDeps) {}

  /**
   * Registers a template from a decoded image; refused, naming the numbers, when the name is
   * empty, long or taken, the image too large, empty or off the canvas, or 50 templates exist.
   */
  async add(request: {
    id: string;
    name: string;
    x: number;
    y: number;
    image: RgbaImage;
    roleId: string;
    channelId: string;
    guildId: string | null;
    locale: string;
    by: string;
  }): Promise<TemplateDoc & { exact: number; opaque: number }> {
    const name = request.name.trim();
    if (name.length === 0 || name.length > MAX_TEMPLATE_NAME) {
      throw invalidInputText(`name of ${name.length} characters`, 'place:templates.errors.name', {
        max: MAX_TEMPLATE_NAME,
        length: name.length,
      });
    }
    const { width, height } = request.image;
    if (width > MAX_TEMPLATE_SIDE || height > MAX_TEMPLATE_SIDE) {
      throw invalidInputText(`${width}×${height} image`, 'place:templates.errors.tooLarge', {
        width,
        height,
        max: MAX_TEMPLATE_SIDE,
      });
    }
    const size = await this.deps.size();
    const outside =
      request.x < 0 || request.y < 0 || request.x + width > size.width || request.y + height > size.height;
    if (outside) {
      throw invalidInputText('template off the canvas', 'place:templates.errors.outside', {
        width,
        height,
        x: request.x,
        y: request.y,
        canvasWidth: size.width,
        canvasHeight: size.height,
        maxX: size.width - width,
        maxY: size.height - height,
      });
    }
    const { pixels, opaque, exact } = quantize(request.image);
    if (opaque === 0) throw invalidInputText('transparent image', 'place:templates.errors.empty');
    // Painting before the first template existed is nobody's grief: the check starts here, and
    // each template judges only what is painted after it was registered.
    const since = await this.deps.advance();
    await this.deps.templates.startGuard(since);
    const doc = {
      _id: request.id,
      name,
      key: name.toLowerCase(),
      since,
      x: request.x,
      y: request.y,
      width,
      height,
      x2: request.x + width - 1,
      y2: request.y + height - 1,
      pixels,
      roleId: request.roleId,
      channelId: request.channelId,
      guildId: request.guildId,
      locale: request.locale,
      by: request.by,
      at: this.deps.clock.now(),
    };
    const stored = await this.deps.templates.insert(doc, MAX_TEMPLATES);
    if (stored === 'taken')
      throw invalidInputText(`"${name}" is taken`, 'place:templates.errors.taken', { name });
    if (stored === 'full') {
      throw invalidInputText(`${MAX_TEMPLATES} templates exist`, 'place:templates.errors.tooMany', {
        max: MAX_TEMPLATES,
      });
    }
    this.#any = { value: true, at: performance.now() };
    return { ...((await this.deps.templates.byId(doc._id)) as TemplateDoc), exact, opaque };
  }

  /** Removes a template: its creator, a moderator or a holder of the template role may. */
  async remove(name: string, actor: TemplateActor): Promise<TemplateDoc> {
    const template = await this.find(name);
    if (!actor.mayManage && template.by !== actor.id) {
      throw invalidInputText('not theirs', 'place:templates.errors.notYours', {
        name: template.name,
        by: template.by,
      });
    }
    // The template the permission was checked on, by id: never another registered under its name meanwhile.
    const removed = await this.deps.templates.remove(template._id);
    if (!removed) throw unknownTemplate(name);
    return removed;
  }

  /** The template of that name (any case); refused when there is none. */
  async find(name: string): Promise<TemplateDoc> {
    const template = await this.deps.templates.byName(name);
    if (!template) throw unknownTemplate(name);
    return template;
  }

  list(): Promise<Omit<TemplateDoc, 'pixels'>[]> {
    return this.deps.templates.summaries();
  }

  byId(id: string): Promise<TemplateDoc | null> {
    return this.deps.templates.byId(id);
  }

  /** Every template with its progress on the canvas as it stands, oldest first: one read of each. */
  async withProgress(): Promise<{ template: TemplateDoc; progress: Progress }[]> {
    const board = await this.deps.board();
    const templates = await this.deps.templates.all();
    return templates.map((template) => ({ template, progress: templateProgress(board, artOf(template)) }));
  }

  /** A template's progress on the canvas as it stands. */
  async progress(template: TemplateDoc): Promise<Progress> {
    return templateProgress(await this.deps.board(), artOf(template));
  }

  /**
   * The template a member works on: the one named, else the first whose faction role they hold
   * (null when they hold none: the caller names the templates there are).
   */
  async forMember(name: string | undefined, roleIds: readonly string[]): Promise<TemplateDoc | null> {
    if (name) return this.find(name);
    const mine = (await this.deps.templates.all()).filter((t) => roleIds.includes(t.roleId));
    const board = await this.deps.board();
    // Of the member's factions, the template with the most left to do.
    let best: { template: TemplateDoc; left: number } | null = null;
    for (const template of mine) {
      const { total, right } = templateProgress(board, artOf(template));
      if (!best || total - right > best.left) best = { template, left: total - right };
    }
    return best?.template ?? null;
  }

  /** The wrong pixels nearest to `from` (else the template's middle), with the progress. */
  async next(
    template: TemplateDoc,
    from: { x: number; y: number } | null,
    limit: number,
  ): Promise<{ wrong: WrongPixel[]; progress: Progress; from: { x: number; y: number } }> {
    const board = await this.deps.board();
    const art = artOf(template);
    const origin = from ?? middleOf(art);
    return {
      wrong: nearestWrong(board, art, origin, limit),
      progress: templateProgress(board, art),
      from: origin,
    };
  }

  /**
   * A placement was written: makes sure the grief check runs at the end of this quiet window.
   * One scheduler write per window per process, and none while no template exists.
   */
  async placed(now: Date = this.deps.clock.now()): Promise<void> {
    const bucket = Math.floor(now.getTime() / GRIEF_QUIET_MS);
    if (bucket === this.#scheduled || !(await this.#anyTemplate())) return;
    await this.deps.scheduler.schedule({
      id: `${GUARD_TASK}:${bucket}`,
      kind: GUARD_TASK,
      dueAt: new Date((bucket + 1) * GRIEF_QUIET_MS),
      payload: { at: (bucket + 1) * GRIEF_QUIET_MS },
    });
    this.#scheduled = bucket;
  }

  /** Checks the grief again at a time (a burst still going on when it last looked). */
  async checkAt(at: Date): Promise<void> {
    await this.deps.scheduler.schedule({
      id: `${GUARD_TASK}:at:${at.getTime()}`,
      kind: GUARD_TASK,
      dueAt: at,
      payload: { at: at.getTime() },
    });
  }

  async #anyTemplate(): Promise<boolean> {
    if (this.#any && performance.now() - this.#any.at < 10_000) return this.#any.value;
    const value = (await this.deps.templates.count()) > 0;
    this.#any = { value, at: performance.now() };
    return value;
  }

  /**
   * What painted over the templates since the check last read the feed. While a burst is still
   * going on (the last grief less than GRIEF_QUIET_MS ago, the first less than
   * GRIEF_MAX_BURST_MS), it answers `later` and reads nothing as judged, so the whole burst
   * becomes one alert per template. The caller claims the stretch, then sends.
   */
  async griefs(now: Date = this.deps.clock.now()): Promise<GriefReport> {
    const from = await this.deps.templates.checked();
    if (from === null) return { kind: 'none', from: 0, to: 0, more: false };
    const feed = await this.deps.changesAfter(from, GUARD_BATCH);
    const to = feed.revision;
    // A full batch leaves more to read: the caller checks again at once.
    const more = to - from >= GUARD_BATCH;
    if (!feed.changes.some((c) => c.kind === 'place')) return { kind: 'none', from, to, more };
    const templates = await this.deps.templates.all();
    const changes = await this.#withBefore(feed.changes, templates);
    const alerts = templates.flatMap((template) => {
      const after = changes.filter((c) => c.revision > template.since);
      const grief = griefOf(artOf(template), after);
      return grief ? [{ template, grief }] : [];
    });
    if (alerts.length === 0) return { kind: 'none', from, to, more };
    const first = Math.min(...alerts.map((a) => a.grief.first.getTime()));
    const last = Math.max(...alerts.map((a) => a.grief.last.getTime()));
    if (!more && now.getTime() - last < GRIEF_QUIET_MS && now.getTime() - first < GRIEF_MAX_BURST_MS) {
      return { kind: 'later', at: new Date(last + GRIEF_QUIET_MS) };
    }
    return { kind: 'alerts', from, to, more, alerts };
  }

  /** Marks the stretch judged; false when another process did first (its alerts are that process's). */
  claim(from: number, to: number): Promise<boolean> {
    return this.deps.templates.claim(from, to);
  }

  /**
   * Each placement inside a template with the colour its pixel had just before: the previous
   * change of the batch on that pixel (a rollback's too), else the pixel's newest event below it
   * (one indexed read per pixel). A moderator's rollback is nobody's grief.
   */
  async #withBefore(
    events: readonly PixelEventDoc[],
    templates: readonly TemplateDoc[],
  ): Promise<PixelChange[]> {
    const inside = events.filter((e) =>
      templates.some((t) => e.x >= t.x && e.x <= t.x2 && e.y >= t.y && e.y <= t.y2),
    );
    const last = new Map<string, number>();
    const changes: PixelChange[] = [];
    for (const e of inside) {
      const key = `${e.x}:${e.y}`;
      let before = last.get(key);
      if (before === undefined) before = (await this.deps.eventBefore(e.x, e.y, e.revision))?.color ?? BLANK;
      if (e.kind === 'place')
        changes.push({
          revision: e.revision,
          x: e.x,
          y: e.y,
          color: e.color,
          before,
          owner: e.owner,
          at: e.at,
        });
      last.set(key, e.color);
    }
    return changes;
  }
}

function unknownTemplate(name: string) {
  return invalidInputText(`no template "${name}"`, 'place:templates.errors.unknown', { name: name.trim() });
}
