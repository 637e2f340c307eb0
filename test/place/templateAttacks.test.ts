import { beforeEach, describe, expect, it } from 'vitest';
import { templateAlertTasks } from '../../commands/place/templateAlerts.js';
import { ManualClock } from '../../src/clock.js';
import { isAppError } from '../../src/errors.js';
import type { BotDeps } from '../../src/interactions/types.js';
import type { ChannelPost } from '../../src/posting/channelPoster.js';
import { PlaceEconomy } from '../../utils/money/placeEconomy.js';
import { AreaStore } from '../../utils/place/areaStore.js';
import { parseColor } from '../../utils/place/palette.js';
import { PlaceService } from '../../utils/place/placeService.js';
import { PlaceStore } from '../../utils/place/placeStore.js';
import { TemplateStore } from '../../utils/place/templateStore.js';
import { GRIEF_QUIET_MS, GUARD_TASK, MAX_TEMPLATES } from '../../utils/place/templates.js';
import { grantPlacePoints, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { buildSolid, paint, RED, solidImage } from '../support/templateKit.js';

const t = useTestDatabase('place_template_attacks');
const WHITE = parseColor('white') as number;
const BLUE = parseColor('blue') as number;
const FACTION = '891400000000000777';
const CHANNEL = '891400000000000555';
const OTHER_CHANNEL = '891400000000000556';
const BUILDER = '891400000000000001';
const [ANN, BOB, MOD] = ['891400000000000011', '891400000000000012', '891400000000000013'];
let ops = 0;

type Templates = BotDeps['services']['place']['templates'];

function addTemplate(
  templates: Templates,
  name: string,
  x: number,
  y: number,
  options: { image?: ReturnType<typeof solidImage>; channelId?: string; id?: string } = {},
) {
  ops += 1;
  return templates.add({
    id: options.id ?? `tpl${String(ops).padStart(6, '0')}`,
    name,
    x,
    y,
    image: options.image ?? solidImage(5, 4),
    roleId: FACTION,
    channelId: options.channelId ?? CHANNEL,
    guildId: null,
    locale: 'en',
    by: BUILDER,
  });
}

/** The English text a member is shown for the refusal `attempt` ends in. */
async function refusalOf(deps: BotDeps, attempt: Promise<unknown>): Promise<string> {
  const error = await attempt.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isAppError(error, 'INVALID_INPUT')) throw new Error(`expected a refusal, got ${String(error)}`);
  return deps.i18n.for('en').t(String(error.context.messageKey), error.context);
}

/** The alerts posted to a channel. */
const alertsIn = (posts: { channelId: string; post: ChannelPost }[], channelId = CHANNEL) =>
  posts
    .filter((p) => p.channelId === channelId && p.post.content?.startsWith('⚠️'))
    .map((p) => p.post.content ?? '');

/** The grief check's runs that failed (and would be retried): none may. */
const failedChecks = (logs: Record<string, unknown>[]) =>
  logs.filter((l) => l.kind === GUARD_TASK && (l.event === 'task.retry' || l.event === 'task.failed'));

/** A built castle at (0, 0), with the check run once over the building (no alert). */
async function builtCastle(made: ReturnType<typeof makeBotDeps>) {
  const { deps, clock } = made;
  await grantPlacePoints(deps, [BUILDER, ANN, BOB], 10_000);
  await addTemplate(deps.services.place.templates, 'castle', 0, 0);
  await buildSolid(deps, BUILDER, 0, 0);
  clock.advance(2 * GRIEF_QUIET_MS);
  await deps.scheduler.runDue();
  expect(alertsIn(made.transport.posts)).toEqual([]);
}

const TAKEN = (name: string) =>
  `There is a template named “${name}” already: choose another name, or remove the old one first.`;
const TOO_MANY = `There are ${MAX_TEMPLATES} templates already, the most there may be: remove one first (\`/place template remove\`).`;

describe('templates under attack: races', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN two members registering "Castle" and "castle" at the same moment THEN exactly one stands and the other is told the name is taken', async () => {
    const { deps } = makeBotDeps(t);
    const templates = deps.services.place.templates;
    const results = await Promise.allSettled([
      addTemplate(templates, 'Castle', 0, 0),
      addTemplate(templates, 'castle', 20, 20),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const loser = results.findIndex((r) => r.status === 'rejected');
    expect(await refusalOf(deps, Promise.reject((lost[0] as PromiseRejectedResult).reason))).toBe(
      TAKEN(loser === 0 ? 'Castle' : 'castle'),
    );
    expect((await templates.list()).map((tpl) => tpl.key)).toEqual(['castle']);
  });

  it('GIVEN 49 templates WHEN two members register the 50th at the same moment (eight times over) THEN each time exactly 50 stand and the other is told 50 is the most', async () => {
    const { deps } = makeBotDeps(t);
    const templates = deps.services.place.templates;
    for (let i = 0; i < MAX_TEMPLATES - 1; i++)
      await addTemplate(templates, `t${i}`, i, 0, { image: solidImage(1, 1) });
    for (let round = 0; round < 8; round++) {
      const results = await Promise.allSettled([
        addTemplate(templates, `r${round}-a`, 0, 10, { image: solidImage(1, 1) }),
        addTemplate(templates, `r${round}-b`, 0, 20, { image: solidImage(1, 1) }),
      ]);
      const standing = await templates.list();
      expect(standing.length, `round ${round}: templates standing`).toBe(MAX_TEMPLATES);
      expect(results.filter((r) => r.status === 'fulfilled').length, `round ${round}: registered`).toBe(1);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(await refusalOf(deps, Promise.reject(lost.reason))).toBe(TOO_MANY);
      // Back to 49 for the next round.
      for (const tpl of standing.filter((s) => s.name.startsWith('r')))
        await templates.remove(tpl.name, { id: MOD, mayManage: true });
    }
  });

  it('GIVEN 49 templates WHEN a second process (its clock a second behind) counts, then inserts its 50th only after this process registered one THEN still exactly 50 stand', async () => {
    const { deps, clock } = makeBotDeps(t);
    const templates = deps.services.place.templates;
    for (let i = 0; i < MAX_TEMPLATES - 1; i++)
      await addTemplate(templates, `t${i}`, i, 0, { image: solidImage(1, 1) });
    // The second process: its template store stops right before it inserts (a slow network,
    // a pause of the process), after it counted 49.
    let reached: () => void = () => undefined;
    const atInsert = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    class PausedStore extends TemplateStore {
      override async insert(template: Parameters<TemplateStore['insert']>[0], slots: number) {
        reached();
        await held;
        return super.insert(template, slots);
      }
    }
    const slow = new PlaceService({
      ...deps,
      clock: new ManualClock(new Date(clock.now().getTime() - 1_000)),
      store: new PlaceStore(t.db),
      areaStore: new AreaStore(t.db),
      templateStore: new PausedStore(t.db),
      economy: new PlaceEconomy(deps.ledger),
    });
    const late = addTemplate(slow.templates, 'fiftieth-slow', 0, 10, { image: solidImage(1, 1) }).then(
      () => 'registered',
      (error: unknown) => error,
    );
    await atInsert;
    await addTemplate(templates, 'fiftieth-fast', 0, 20, { image: solidImage(1, 1) });
    release();
    const outcome = await late;
    const names = (await templates.list()).map((tpl) => tpl.name);
    expect(
      names.length,
      `the slow registration ended in ${outcome === 'registered' ? 'success' : String(outcome)}`,
    ).toBe(MAX_TEMPLATES);
  });

  it('GIVEN griefs over two templates WHEN one of them is removed while the check posts the alerts THEN nothing throws, the check moves on, and later grief is told once', async () => {
    const made = makeBotDeps(t);
    const { deps, clock, transport, logs } = made;
    const templates = deps.services.place.templates;
    await builtCastle(made);
    await addTemplate(templates, 'tower', 10, 0, { channelId: OTHER_CHANNEL });
    await buildSolid(deps, BUILDER, 10, 0);
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    await paint(deps, ANN, 0, 0, WHITE);
    await paint(deps, ANN, 10, 0, WHITE);
    // While the first alert (the castle's, the older template) goes out, the tower is removed.
    const send = transport.send.bind(transport);
    let removed = false;
    transport.send = async (channelId, post) => {
      if (!removed) {
        removed = true;
        await templates.remove('tower', { id: MOD, mayManage: true });
      }
      return send(channelId, post);
    };
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    await deps.scheduler.runDue();
    expect(removed).toBe(true);
    expect(failedChecks(logs)).toEqual([]);
    expect(alertsIn(transport.posts)).toHaveLength(1);
    // The tower's alert was read before it was removed: it may go, once at most.
    expect(alertsIn(transport.posts, OTHER_CHANNEL).length).toBeLessThanOrEqual(1);
    expect(await templates.griefs()).toMatchObject({ kind: 'none' });

    await paint(deps, BOB, 1, 0, WHITE);
    await paint(deps, BOB, 11, 0, WHITE);
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    const castle = alertsIn(transport.posts);
    expect(castle).toHaveLength(2);
    expect(castle[1]).toContain('was painted over: 1 placement.');
    expect(castle[1]).toContain(`By: <@${BOB}> (1)`);
    expect(alertsIn(transport.posts, OTHER_CHANNEL).length).toBeLessThanOrEqual(1);
    expect(failedChecks(logs)).toEqual([]);
  });

  it('GIVEN a template removed before the check runs over its grief THEN no alert goes for it, nothing throws, and the check moves past that stretch', async () => {
    const made = makeBotDeps(t);
    const { deps, clock, transport, logs } = made;
    const templates = deps.services.place.templates;
    await builtCastle(made);
    await paint(deps, ANN, 0, 0, WHITE);
    await templates.remove('castle', { id: MOD, mayManage: true });
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    expect(alertsIn(transport.posts)).toEqual([]);
    expect(failedChecks(logs)).toEqual([]);
    const checked = await new TemplateStore(t.db).checked();
    expect(checked).toBe((await deps.services.place.canvas()).committed);
  });

  it('GIVEN a grief burst whose pixels fall on both sides of a quiet-window boundary THEN the faction gets ONE alert for the whole burst', async () => {
    const made = makeBotDeps(t);
    const { deps, clock, transport } = made;
    await builtCastle(made);
    // The clock stands on a window's boundary: ann paints 100 ms before the next one, bob 100 ms after.
    expect(clock.now().getTime() % GRIEF_QUIET_MS).toBe(0);
    clock.advance(GRIEF_QUIET_MS - 100);
    await paint(deps, ANN, 0, 0, WHITE);
    clock.advance(200);
    await paint(deps, BOB, 1, 0, WHITE);
    // The first window's check: bob painted 100 ms ago, the burst goes on.
    await deps.scheduler.runDue();
    expect(alertsIn(transport.posts)).toEqual([]);
    // The second window's check, due 29.9 s after bob's pixel: not quiet yet either.
    clock.advance(GRIEF_QUIET_MS - 100);
    await deps.scheduler.runDue();
    expect(alertsIn(transport.posts)).toEqual([]);
    clock.advance(100);
    await deps.scheduler.runDue();
    await deps.scheduler.runDue();
    const sent = alertsIn(transport.posts);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('was painted over: 2 placements.');
    expect(sent[0]).toContain(`By 2 painters: <@${ANN}> (1), <@${BOB}> (1)`);
    clock.advance(10 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    expect(alertsIn(transport.posts)).toHaveLength(1);
  });

  it('GIVEN the check task run twice over the same grief (at once, then again as a retry) THEN the faction gets exactly one alert', async () => {
    const made = makeBotDeps(t);
    const { deps, clock, transport } = made;
    await builtCastle(made);
    await paint(deps, ANN, 0, 0, WHITE);
    clock.advance(2 * GRIEF_QUIET_MS);
    const [check] = templateAlertTasks(deps);
    if (!check) throw new Error('no grief check task');
    const run = (attempt: number) =>
      check.run({ at: clock.now().getTime() }, { id: `${GUARD_TASK}:test`, dueAt: clock.now(), attempt });
    await Promise.all([run(1), run(1)]);
    await run(2);
    await deps.scheduler.runDue();
    expect(alertsIn(transport.posts)).toHaveLength(1);
  });

  it('GIVEN a moderator rolls back the builder’s pixels over a finished template THEN that is nobody’s grief: no alert, and painting a pixel it left wrong is none either', async () => {
    const made = makeBotDeps(t);
    const { deps, clock, transport } = made;
    await builtCastle(made);
    const place = deps.services.place;
    await place.rollbacks.plan({ id: 'rb-builder', adminId: MOD, target: BUILDER });
    expect(await place.rollbacks.apply('rb-builder', false)).toMatchObject({ restored: 20 });
    expect((await place.templates.progress(await place.templates.find('castle'))).right).toBe(0);
    // After the rollback (in the same stretch of the feed) ann paints a now-white pixel blue.
    await paint(deps, ANN, 2, 2, BLUE);
    clock.advance(2 * GRIEF_QUIET_MS);
    await place.templates.checkAt(clock.now());
    await deps.scheduler.runDue();
    await deps.scheduler.runDue();
    expect(alertsIn(transport.posts)).toEqual([]);
  });

  it('GIVEN a vandal’s pixels rolled back by a moderator before the check runs THEN the faction is still told of the vandal once (the grief happened), and the alert reads 100 % right', async () => {
    const made = makeBotDeps(t);
    const { deps, clock, transport } = made;
    await builtCastle(made);
    const place = deps.services.place;
    await paint(deps, ANN, 0, 0, WHITE);
    await paint(deps, ANN, 1, 0, WHITE);
    await place.rollbacks.plan({ id: 'rb-ann', adminId: MOD, target: ANN });
    expect(await place.rollbacks.apply('rb-ann', false)).toMatchObject({ restored: 2 });
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    await deps.scheduler.runDue();
    const sent = alertsIn(transport.posts);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('was painted over: 2 placements.');
    expect(sent[0]).toContain(`By: <@${ANN}> (2)`);
    expect(sent[0]).toContain('Now 100% right.');
  });

  it('GIVEN the only template removed, its area painted over while none exists, and a new template registered there THEN the new template is not alerted for painting older than itself', async () => {
    const made = makeBotDeps(t);
    const { deps, clock, transport } = made;
    const templates = deps.services.place.templates;
    await builtCastle(made);
    await templates.remove('castle', { id: MOD, mayManage: true });
    // Another process, which knows of no template (this one remembers one for 10 s), paints:
    // with no template its placements schedule no check, so the guard stays where it was.
    const other = makeBotDeps(t).deps;
    await paint(other, ANN, 40, 40, RED);
    await paint(other, BOB, 40, 40, WHITE);
    clock.advance(10 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    await addTemplate(templates, 'keep', 40, 40, { image: solidImage(1, 1) });
    await paint(deps, ANN, 100, 100, BLUE);
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    await deps.scheduler.runDue();
    expect(alertsIn(transport.posts)).toEqual([]);
  });

  it('GIVEN a template elsewhere WHEN a pixel is painted over and a new template is registered on it within the same quiet window THEN the new template is not alerted for painting older than itself', async () => {
    const made = makeBotDeps(t);
    const { deps, clock, transport } = made;
    await builtCastle(made);
    await paint(deps, ANN, 40, 40, RED);
    await paint(deps, BOB, 40, 40, WHITE);
    clock.advance(1_000);
    await addTemplate(deps.services.place.templates, 'keep', 40, 40, { image: solidImage(1, 1) });
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    await deps.scheduler.runDue();
    expect(alertsIn(transport.posts)).toEqual([]);
  });
});

describe('templates under attack: a crash and a failing Discord', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a process that claimed the grief stretch and died before posting WHEN the check runs again THEN that alert is LOST, never doubled, and the next grief is told', async () => {
    const made = makeBotDeps(t);
    const { deps, clock, transport, logs } = made;
    const templates = deps.services.place.templates;
    await builtCastle(made);
    await paint(deps, ANN, 0, 0, WHITE);
    clock.advance(2 * GRIEF_QUIET_MS);
    // The dying process: it read the grief and claimed the stretch; its post never went out.
    const report = await templates.griefs();
    expect(report.kind).toBe('alerts');
    if (report.kind !== 'alerts') return;
    expect(await templates.claim(report.from, report.to)).toBe(true);
    await deps.scheduler.runDue();
    await templates.checkAt(clock.now());
    await deps.scheduler.runDue();
    expect(alertsIn(transport.posts)).toEqual([]);
    expect(failedChecks(logs)).toEqual([]);

    await paint(deps, BOB, 1, 0, WHITE);
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    const sent = alertsIn(transport.posts);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('was painted over: 1 placement.');
    expect(sent[0]).toContain(`By: <@${BOB}> (1)`);
  });

  it('GIVEN a fresh process that paints over a template and dies the moment its placement answers THEN the grief check of that window is already stored, and another process tells the faction', async () => {
    const made = makeBotDeps(t);
    const { clock, transport } = made;
    await builtCastle(made);
    // A process that has never looked whether a template exists: its first placement asks.
    const dying = makeBotDeps(t);
    dying.clock.advanceTo(clock.now());
    await paint(dying.deps, ANN, 0, 0, WHITE);
    const bucket = Math.floor(clock.now().getTime() / GRIEF_QUIET_MS);
    expect(await made.deps.scheduler.get(`${GUARD_TASK}:${bucket}`)).toMatchObject({ status: 'due' });
    clock.advance(2 * GRIEF_QUIET_MS);
    await made.deps.scheduler.runDue();
    expect(alertsIn(transport.posts)).toHaveLength(1);
  });

  it('GIVEN Discord fails the post of one faction’s alert WHEN the check runs THEN the other faction’s alert still goes, the failure is logged, and the failed alert is sent again once Discord answers, once', async () => {
    const made = makeBotDeps(t);
    const { deps, clock, transport, logs } = made;
    await builtCastle(made);
    await addTemplate(deps.services.place.templates, 'tower', 10, 0, { channelId: OTHER_CHANNEL });
    await buildSolid(deps, BUILDER, 10, 0);
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    await paint(deps, ANN, 0, 0, WHITE);
    await paint(deps, ANN, 10, 0, WHITE);
    transport.refuse.set(CHANNEL, new Error('Discord answered 500 Internal Server Error'));
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    await deps.scheduler.runDue();
    expect(alertsIn(transport.posts, OTHER_CHANNEL)).toHaveLength(1);
    expect(alertsIn(transport.posts, CHANNEL)).toEqual([]);
    expect(logs.filter((l) => l.event === 'post.in_channel_failed' && l.channelId === CHANNEL)).toHaveLength(
      1,
    );
    expect(failedChecks(logs)).toEqual([]);
    transport.refuse.delete(CHANNEL);
    clock.advance(10 * GRIEF_QUIET_MS);
    await deps.services.place.templates.checkAt(clock.now());
    await deps.scheduler.runDue();
    const [alert] = alertsIn(transport.posts, CHANNEL);
    expect(alertsIn(transport.posts, CHANNEL)).toHaveLength(1);
    expect(alert).toContain(`By: <@${ANN}> (1)`);
    expect(alertsIn(transport.posts, OTHER_CHANNEL)).toHaveLength(1);
  });
});

describe('templates under attack: hostile input', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN names of only spaces, of 33 characters, and a case-twin of a taken one THEN each is refused with what is wrong; 32 characters in spaces are trimmed and taken', async () => {
    const { deps } = makeBotDeps(t);
    const templates = deps.services.place.templates;
    expect(await refusalOf(deps, addTemplate(templates, '     ', 0, 0))).toBe(
      "A template's name is 1 to 32 characters long; this one has 0.",
    );
    expect(await refusalOf(deps, addTemplate(templates, 'x'.repeat(33), 0, 0))).toBe(
      "A template's name is 1 to 32 characters long; this one has 33.",
    );
    const long = `  ${'y'.repeat(32)}  `;
    expect((await addTemplate(templates, long, 0, 0)).name).toBe('y'.repeat(32));
    await addTemplate(templates, 'Castle', 10, 10);
    expect(await refusalOf(deps, addTemplate(templates, 'castle', 20, 20))).toBe(TAKEN('castle'));
    expect(await refusalOf(deps, addTemplate(templates, ' CASTLE ', 20, 20))).toBe(TAKEN('CASTLE'));
    expect((await templates.find('cAsTlE')).name).toBe('Castle');
    expect((await templates.list()).map((tpl) => tpl.name)).toEqual(['y'.repeat(32), 'Castle']);
  });

  it('GIVEN x or y negative THEN the template is refused as off the canvas, even from a caller without Discord’s min_value', async () => {
    const { deps } = makeBotDeps(t);
    const templates = deps.services.place.templates;
    for (const [x, y] of [
      [-1, 0],
      [0, -1],
      [-5, -5],
    ] as const) {
      const refusal = await refusalOf(deps, addTemplate(templates, `neg${x}${y}`, x, y)).catch(
        (error: Error) => error.message,
      );
      expect(refusal, `(${x}, ${y})`).toMatch(/reaches past the 256×256 canvas/);
    }
    expect(await templates.list()).toEqual([]);
  });

  it('GIVEN a template past the canvas THEN refused; one whose right and bottom edges are the canvas’s edges THEN accepted, every pixel paintable', async () => {
    const { deps } = makeBotDeps(t);
    const templates = deps.services.place.templates;
    expect(await refusalOf(deps, addTemplate(templates, 'past', 252, 0))).toBe(
      'A 5×4 template at (252, 0) reaches past the 256×256 canvas: x may be 0 to 251, y 0 to 252.',
    );
    expect(
      await refusalOf(deps, addTemplate(templates, 'far', 300, 300, { image: solidImage(1, 1) })),
    ).toMatch(/^A 1×1 template at \(300, 300\) reaches past/);
    const edge = await addTemplate(templates, 'edge', 251, 252);
    expect(edge).toMatchObject({ x2: 255, y2: 255 });
    await grantPlacePoints(deps, [BUILDER], 10_000);
    await buildSolid(deps, BUILDER, 251, 252);
    expect(await templates.progress(edge)).toEqual({ total: 20, right: 20, percent: 100 });
  });

  it('GIVEN an image 513×1 THEN refused as too large; one whose every pixel is alpha 127 THEN refused as empty', async () => {
    const { deps } = makeBotDeps(t);
    const templates = deps.services.place.templates;
    expect(await refusalOf(deps, addTemplate(templates, 'wide', 0, 0, { image: solidImage(513, 1) }))).toBe(
      'The image is 513×1 pixels; a template is at most 512×512 (one image pixel per canvas pixel).',
    );
    expect(
      await refusalOf(deps, addTemplate(templates, 'ghost', 0, 0, { image: solidImage(3, 3, RED, 127) })),
    ).toBe('The image is transparent throughout: there is nothing to paint.');
    expect(await templates.list()).toEqual([]);
  });
});
