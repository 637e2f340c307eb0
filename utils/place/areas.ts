import type { Clock } from '../../src/clock.js';
import { AppError, type ErrorMessages, invalidInputText } from '../../src/errors.js';
import type { AreaDoc, AreaStore } from './areaStore.js';
import type { ModerationLogDoc, ModerationLogStore, ModeratorRole } from './moderationLogStore.js';

declare module '../../src/errors.js' {
  interface ErrorCodeRegistry {
    PIXEL_PROTECTED: true;
  }
}

/** At most this many areas, each named in at most this many characters. */
export const MAX_AREAS = 50;
export const MAX_AREA_NAME = 32;

/** A rectangle of the canvas, corners inclusive. */
export interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Who is painting, as far as protection asks: a moderator, or the roles they hold. */
export interface Painter {
  isModerator: boolean;
  roleIds: readonly string[];
}

interface AreaDeps {
  areas: AreaStore;
  /** The public moderation log: every area protected or unprotected. */
  log: ModerationLogStore;
  clock: Clock;
  size(): Promise<{ width: number; height: number }>;
}

/** Protected areas: only moderators, or members with the area's role, paint inside. */
export class PlaceAreas {
  constructor(private readonly deps: AreaDeps) {}

  /** A new area; refused (naming the numbers) when the name is long or taken, the rectangle off the canvas, or 50 exist. */
  async protect(
    area: Rect & { id: string; name: string; roleId: string | null; by: string; role?: ModeratorRole },
  ): Promise<AreaDoc> {
    const name = area.name.trim();
    if (name.length === 0 || name.length > MAX_AREA_NAME) {
      throw invalidInputText(`name of ${name.length} characters`, 'place:areas.errors.name', {
        max: MAX_AREA_NAME,
        length: name.length,
      });
    }
    const size = await this.deps.size();
    if (area.x2 >= size.width || area.y2 >= size.height) {
      throw invalidInputText('area outside the canvas', 'place:areas.errors.outside', {
        maxX: size.width - 1,
        maxY: size.height - 1,
      });
    }
    const tooMany = () =>
      invalidInputText(`${MAX_AREAS} areas exist`, 'place:areas.errors.tooMany', { max: MAX_AREAS });
    if ((await this.deps.areas.count()) >= MAX_AREAS) throw tooMany();
    const doc: AreaDoc = {
      _id: area.id,
      name,
      key: name.toLowerCase(),
      x1: area.x1,
      y1: area.y1,
      x2: area.x2,
      y2: area.y2,
      roleId: area.roleId,
      by: area.by,
      at: this.deps.clock.now(),
    };
    if (!(await this.deps.areas.insert(doc))) {
      throw invalidInputText(`"${name}" is taken`, 'place:areas.errors.taken', { name });
    }
    // Two moderators protecting the 50th area at once (Discord and the portal) both passed the
    // count: the one that comes later in the list takes its area back.
    if ((await this.deps.areas.countBefore(doc)) >= MAX_AREAS) {
      await this.deps.areas.discard(doc._id);
      throw tooMany();
    }
    await this.#logged('protect', doc, area.role);
    return doc;
  }

  /** Removes the area of that name; refused when there is none. */
  async unprotect(name: string, role?: ModeratorRole): Promise<AreaDoc> {
    const removed = await this.deps.areas.remove(name.trim());
    if (!removed) throw invalidInputText(`no area "${name}"`, 'place:areas.errors.unknown', { name });
    await this.#logged('unprotect', removed, role);
    return removed;
  }

  /** The public log's line: the area's name and rectangle, and the role (only admins protect today). */
  async #logged(action: ModerationLogDoc['action'], area: AreaDoc, role: ModeratorRole = 'admin') {
    await this.deps.log.record({
      _id: `${action}:${area._id}`,
      action,
      at: this.deps.clock.now(),
      area: { x1: area.x1, y1: area.y1, x2: area.x2, y2: area.y2 },
      name: area.name,
      role,
      reason: null,
    });
  }

  list(): Promise<AreaDoc[]> {
    return this.deps.areas.all();
  }

  /**
   * Refuses a painter on a protected pixel: the first area covering it that they may not paint
   * in (a moderator paints everywhere; a member where every covering area names a role they hold).
   */
  async refuse(x: number, y: number, painter: Painter): Promise<void> {
    if (painter.isModerator) return;
    const covering = await this.deps.areas.covering(x, y);
    const denying = covering.find((a) => a.roleId === null || !painter.roleIds.includes(a.roleId));
    if (denying) throw pixelProtected(x, y, denying);
  }
}

export function pixelProtected(x: number, y: number, area: AreaDoc): AppError {
  return new AppError('PIXEL_PROTECTED', `(${x}, ${y}) is in the protected area "${area.name}"`, {
    x,
    y,
    area: area.name,
    role: area.roleId ?? '',
  });
}

export const AREA_ERROR_MESSAGES: ErrorMessages<'PIXEL_PROTECTED'> = {
  PIXEL_PROTECTED: (c, _, i18n) =>
    i18n.t(c.role ? 'place:areas.errors.protectedRole' : 'place:areas.errors.protected', {
      x: c.x,
      y: c.y,
      area: c.area,
      role: c.role,
    }),
};
