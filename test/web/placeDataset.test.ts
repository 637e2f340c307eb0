import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { datasetPainter } from '../../utils/place/dataset.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('web_place_dataset');
const MOD = '897400000000000001';
const ANA = '897400000000000011';
const BO = '897400000000000012';

let web: Awaited<ReturnType<typeof startWeb>>;

/** The file's records by column (no field of this dataset holds a comma or a quote). */
function records(csv: string): Record<string, string>[] {
  const [head, ...lines] = csv.split('\r\n').filter((line) => line !== '');
  const columns = head?.split(',') ?? [];
  expect(columns).toEqual(['time', 'x', 'y', 'color', 'painter', 'kind']);
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [columns[i], v])));
}

describe('the canvas history as a dataset', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t, { MODERATOR_USER_IDS: MOD });
  });
  afterEach(() => web.close());

  it('GIVEN placements by two members, one then forgotten THEN moderators get every change in order, painters as pseudonyms, the forgotten as nobody', async () => {
    const { services } = web.deps;
    for (const who of [ANA, BO])
      await services.place.grant({
        opId: `g-${who}`,
        moderatorId: MOD,
        to: who,
        amount: 1_000_000,
        reason: '',
      });
    await services.place.place({ opId: 'a1', userId: ANA, x: 1, y: 2, color: 2 });
    await services.place.place({ opId: 'b1', userId: BO, x: 3, y: 4, color: 5 });
    await services.place.place({ opId: 'a2', userId: ANA, x: 3, y: 4, color: 0 });
    await services.privacy.forget(services, BO, 'self', 'en');

    const member = await web.signIn(ANA, 'ana');
    const refused = await web.request('GET', '/api/admin/place/dataset.csv', { cookie: member });
    expect([refused.status, refused.json.error.code]).toEqual([403, 'FORBIDDEN']);

    const answer = await web.request('GET', '/api/admin/place/dataset.csv', {
      cookie: await web.signIn(MOD, 'mo'),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="neural-place-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = records(answer.text);
    const ana = rows[0]?.painter;
    expect(ana).toMatch(/^[0-9a-f]{16}$/);
    expect(rows.map(({ x, y, color, painter, kind }) => [x, y, color, painter, kind])).toEqual([
      ['1', '2', '#FF4500', ana, 'placement'],
      ['3', '4', '#FFF8B8', '', 'placement'],
      ['3', '4', '#6D001A', ana, 'placement'],
    ]);
    expect(rows.every((r) => !Number.isNaN(Date.parse(r.time ?? '')))).toBe(true);
    // Nobody's Discord id is in the file, and the pseudonym is not the id's plain hash.
    expect(answer.text).not.toContain(ANA);
    expect(ana).not.toBe(datasetPainter('', ANA));
    // The same painter, the same pseudonym, export after export.
    const again = await web.request('GET', '/api/admin/place/dataset.csv', {
      cookie: await web.signIn(MOD, 'mo'),
    });
    expect(again.text).toBe(answer.text);
  });
});
