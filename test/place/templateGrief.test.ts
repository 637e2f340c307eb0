import { beforeEach, describe, expect, it } from 'vitest';
import type { BotDeps } from '../../src/interactions/types.js';
import type { ChannelPost } from '../../src/posting/channelPoster.js';
import { PlaceEconomy } from '../../utils/money/placeEconomy.js';
import { AreaStore } from '../../utils/place/areaStore.js';
import { parseColor } from '../../utils/place/palette.js';
import { PlaceService } from '../../utils/place/placeService.js';
import { PlaceStore } from '../../utils/place/placeStore.js';
import { TemplateStore } from '../../utils/place/templateStore.js';
import { GRIEF_QUIET_MS } from '../../utils/place/templates.js';
import { grantPlacePoints, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { buildSolid, paint, solidImage } from '../support/templateKit.js';

const t = useTestDatabase('place_template_grief');
const WHITE = parseColor('white') as number;
const FACTION = '891300000000000777';
const CHANNEL = '891300000000000555';
const BUILDER = '891300000000000001';
const painters = (n: number) =>
  Array.from({ length: n }, (_, i) => `8913000000001${String(i).padStart(5, '0')}`);
let ops = 0;

function addTemplate(deps: BotDeps, name: string, x: number, y: number, image = solidImage(5, 4)) {
  ops += 1;
  return deps.services.place.templates.add({
    id: `tpl${ops}`,
    name,
    x,
    y,
    image,
    roleId: FACTION,
    channelId: CHANNEL,
    guildId: null,
    locale: 'en',
    by: BUILDER,
  });
}

/** The alerts posted to the faction's channel. */
const alerts = (posts: { channelId: string; post: ChannelPost }[]) =>
  posts.filter((p) => p.channelId === CHANNEL).map((p) => p.post);

describe('grief alerts', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a finished template WHEN 20 painters each paint one of its pixels white at once THEN one alert names all 20, with 20 pixels and before/after pictures', async () => {
    const { deps, clock, transport } = makeBotDeps(t);
    const griefers = painters(20);
    await grantPlacePoints(deps, [BUILDER, ...griefers], 10_000);
    await addTemplate(deps, 'castle', 10, 10);
    await buildSolid(deps, BUILDER, 10, 10);
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    // Building it right is nobody's grief.
    expect(alerts(transport.posts)).toEqual([]);

    await Promise.all(griefers.map((m, i) => paint(deps, m, 10 + (i % 5), 10 + Math.floor(i / 5), WHITE)));
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    await deps.scheduler.runDue();

    const [alert, ...more] = alerts(transport.posts);
    expect(more).toEqual([]);
    const lines = alert?.content?.split('\n') ?? [];
    expect(lines[0]).toBe(`⚠️ **castle** (<@&${FACTION}>) was painted over: 20 placements.`);
    expect(lines[1]).toMatch(/^By 20 painters: /);
    for (const m of griefers.slice(0, 10)) expect(lines[1]).toContain(`<@${m}> (1)`);
    expect(lines[1]).toContain('and 10 more');
    expect(lines[2]).toMatch(/^20 pixels in \(10, 10\)–\(14, 13\), <t:\d+:T>–<t:\d+:T>\.$/);
    expect(lines[3]).toBe('Now 0% right. See what to fix: `/place template next name:castle`');
    expect(alert?.files?.map((f) => f.name)).toEqual(['before.png', 'after.png']);
    for (const file of alert?.files ?? []) expect(file.data.subarray(1, 4).toString()).toBe('PNG');
    // Nobody is pinged by an alert.
    expect(alert?.notify ?? []).toEqual([]);
  });

  it('GIVEN a burst still going on WHEN the check runs THEN it waits for a quiet window and sends one alert for the whole burst', async () => {
    const { deps, clock, transport } = makeBotDeps(t);
    const [ann, bob] = painters(2) as [string, string];
    await grantPlacePoints(deps, [BUILDER, ann, bob], 10_000);
    await addTemplate(deps, 'castle', 0, 0);
    await buildSolid(deps, BUILDER, 0, 0);
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();

    await paint(deps, ann, 0, 0, WHITE);
    clock.advance(GRIEF_QUIET_MS - 5_000);
    await paint(deps, bob, 1, 0, WHITE);
    // The window of ann's pixel ends: bob painted 5 s ago, so the burst goes on.
    clock.advance(5_000);
    await deps.scheduler.runDue();
    expect(alerts(transport.posts)).toEqual([]);
    await paint(deps, ann, 2, 0, WHITE);
    clock.advance(GRIEF_QUIET_MS + 1_000);
    await deps.scheduler.runDue();
    await deps.scheduler.runDue();

    const sent = alerts(transport.posts);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.content).toContain('was painted over: 3 placements.');
    expect(sent[0]?.content).toContain(`By 2 painters: <@${ann}> (2), <@${bob}> (1)`);
  });

  it('GIVEN two processes WHEN both run the check over the same burst at once THEN the faction gets one alert', async () => {
    const one = makeBotDeps(t);
    const two = makeBotDeps(t);
    const [ann] = painters(1) as [string];
    await grantPlacePoints(one.deps, [BUILDER, ann], 10_000);
    await addTemplate(one.deps, 'castle', 0, 0);
    await buildSolid(one.deps, BUILDER, 0, 0);
    await paint(one.deps, ann, 3, 3, WHITE);
    for (const p of [one, two]) p.clock.advance(10 * GRIEF_QUIET_MS);
    const [first, second] = await Promise.all([
      one.deps.services.place.templates.griefs(),
      two.deps.services.place.templates.griefs(),
    ]);
    expect(first).toMatchObject({ kind: 'alerts' });
    expect(second).toEqual(first);
    if (first?.kind !== 'alerts' || second?.kind !== 'alerts') return;
    const claims = await Promise.all([
      one.deps.services.place.templates.claim(first.from, first.to),
      two.deps.services.place.templates.claim(second.from, second.to),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    // Through the scheduler too: both processes' runs of the due check send one alert between them.
    await paint(one.deps, ann, 4, 3, WHITE);
    for (const p of [one, two]) p.clock.advance(10 * GRIEF_QUIET_MS);
    await one.deps.services.place.templates.checkAt(one.clock.now());
    await Promise.all([one.deps.scheduler.runDue(), two.deps.scheduler.runDue()]);
    expect([...alerts(one.transport.posts), ...alerts(two.transport.posts)]).toHaveLength(1);
  });

  it('GIVEN a placement still being written WHEN the check runs THEN it judges only what is settled, and the late pixel is in the next alert', async () => {
    const { deps, clock, transport } = makeBotDeps(t);
    const [ann, bob] = painters(2) as [string, string];
    await grantPlacePoints(deps, [BUILDER, ann, bob], 10_000);
    await addTemplate(deps, 'castle', 0, 0);
    await buildSolid(deps, BUILDER, 0, 0);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A second process whose placement stops between taking its revision and writing it.
    const slow = new PlaceService({
      ...deps,
      store: new PlaceStore(t.db),
      areaStore: new AreaStore(t.db),
      templateStore: new TemplateStore(t.db),
      economy: new PlaceEconomy(deps.ledger),
      afterAllocate: () => held,
    });
    const inFlight = slow.place({ opId: 'slow-op', userId: bob, x: 1, y: 1, color: WHITE });
    await waitForRevisionTaken(deps, 21);
    await paint(deps, ann, 0, 0, WHITE);
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.services.place.templates.checkAt(clock.now());
    await deps.scheduler.runDue();
    // The watermark stops below bob's revision: ann's pixel, after it, waits with it.
    expect(alerts(transport.posts)).toEqual([]);
    release();
    await inFlight;
    await paint(deps, ann, 2, 2, WHITE);
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.scheduler.runDue();
    const sent = alerts(transport.posts);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.content).toContain('was painted over: 3 placements.');
    expect(sent[0]?.content).toContain(`<@${ann}> (2), <@${bob}> (1)`);
  });

  it('GIVEN pixels painted before any template existed THEN the first template is not alerted for them', async () => {
    const { deps, clock, transport } = makeBotDeps(t);
    const [ann] = painters(1) as [string];
    await grantPlacePoints(deps, [BUILDER, ann], 10_000);
    await buildSolid(deps, BUILDER, 0, 0);
    await paint(deps, ann, 0, 0, WHITE);
    await addTemplate(deps, 'castle', 0, 0);
    clock.advance(2 * GRIEF_QUIET_MS);
    await deps.services.place.templates.checkAt(clock.now());
    await deps.scheduler.runDue();
    expect(alerts(transport.posts)).toEqual([]);
    expect(
      (await deps.services.place.templates.progress(await deps.services.place.templates.find('castle')))
        .right,
    ).toBe(19);
  });
});

/** Waits until a revision is handed out (the slow placement took it). */
async function waitForRevisionTaken(deps: BotDeps, revision: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await deps.services.place.canvas()).revision < revision) {
    if (Date.now() > deadline) throw new Error(`revision ${revision} was never handed out`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
