import { beforeEach, describe, expect, it } from 'vitest';
import { PlaceBoard } from '../../utils/place/board.js';
import { BLANK, PALETTE } from '../../utils/place/palette.js';
import { HEAT, heatCounts, heatLevel, heatmap, VIRGIN, virginMap } from '../../utils/place/views.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('place_views');
const at = (board: { width: number }, x: number, y: number) => y * board.width + x;

describe('the heatmap and the virgin map', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN pixels painted once, three times and forty times THEN each shows its heat, the rest the canvas', async () => {
    const board = new PlaceBoard(8, 8);
    board.set(7, 7, 2);
    const events = [
      { x: 1, y: 1 },
      ...Array.from({ length: 3 }, () => ({ x: 2, y: 1 })),
      ...Array.from({ length: 40 }, () => ({ x: 3, y: 1 })),
    ];
    const { counts, placements } = await heatCounts(board, events);
    expect(placements).toBe(44);
    const view = heatmap(board, counts);
    expect(view.marked).toBe(3);
    const heat = (x: number) => view.colors[view.pixels[at(view, x, 1)] as number];
    expect([heat(1), heat(2), heat(3)]).toEqual([HEAT[0], HEAT[1], HEAT[HEAT.length - 1]]);
    expect([heatLevel(1), heatLevel(3), heatLevel(4), heatLevel(31), heatLevel(32)]).toEqual([0, 1, 2, 4, 5]);
    // Unpainted in the span: the canvas's own colour, dimmed.
    expect(view.pixels[at(view, 7, 7)]).toBe(2);
    expect(view.colors.length).toBe(PALETTE.length + HEAT.length);
  });

  it('GIVEN pixels painted, one of them blank, and a resize THEN only the others are virgin', () => {
    const board = new PlaceBoard(4, 4);
    board.set(0, 0, 5);
    board.set(3, 3, BLANK);
    expect(virginMap(board).marked).toBe(14);
    board.resize(6, 5);
    const view = virginMap(board);
    expect(view.marked).toBe(30 - 2);
    expect(view.colors[view.pixels[at(view, 3, 3)] as number]).not.toEqual(VIRGIN);
    expect(view.colors[view.pixels[at(view, 5, 4)] as number]).toEqual(VIRGIN);
  });

  it('GIVEN placements an hour apart THEN the last hour counts only the newer, and both pictures are sent', async () => {
    const c = makeConsole(t);
    const place = c.deps.services.place;
    await place.grant({ opId: 'g', moderatorId: 'admin', to: 'hue', amount: 1_000_000, reason: '' });
    await place.place({ opId: 'a', userId: 'hue', x: 4, y: 4, color: 1 });
    c.clock.advance(2 * 3_600_000);
    await place.place({ opId: 'b', userId: 'hue', x: 5, y: 4, color: 1 });
    await place.place({ opId: 'c', userId: 'hue', x: 5, y: 4, color: 2 });
    const now = c.clock.now().getTime();
    const hour = await place.views.heat(new Date(now - 3_600_000));
    expect(hour.placements).toBe(2);
    expect([hour.counts[at(hour.board, 4, 4)], hour.counts[at(hour.board, 5, 4)]]).toEqual([0, 2]);
    expect((await place.views.heat(new Date(now - 86_400_000))).placements).toBe(3);
    await c.session.run('/place heatmap period:hour');
    await c.session.run('/place virgin');
    const printed = c.take();
    expect(printed).toMatch(
      /Neural Place: painting in the last hour[\s\S]*attachment: \S+-heatmap\.png \(\d+x\d+\)/,
    );
    expect(printed).toMatch(/Neural Place: never painted[\s\S]*attachment: \S+-virgin\.png \(\d+x\d+\)/);
  });
});
