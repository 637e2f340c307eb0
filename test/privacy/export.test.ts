import { gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { fundVaultAndMembers, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('privacy_export');
const ANA = '875000000000000001';
const BEN = '875000000000000002';
const POINT = 1_000;

describe('a member asking for their data', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a member who collected, received a give, painted and linked a worker WHEN they export THEN the file is JSON they can read in their language, with every record that names them and none that does not', async () => {
    const { deps, clock } = makeBotDeps(t);
    await fundVaultAndMembers(deps, 10_000, [ANA, BEN], 500);
    await deps.profiles.touch({ id: ANA, name: 'Ana' });
    await deps.profiles.touch({ id: BEN, name: 'Ben' });
    clock.advance(25 * 3_600_000);
    await deps.services.collect.collect(ANA, 'command');
    await deps.services.cookies.openGive({ promptId: 'g1', from: BEN, to: ANA, amount: 40 });
    await deps.services.cookies.confirmGive('g1', BEN);
    await deps.services.place.grant({
      opId: 'pts',
      moderatorId: 'mod',
      to: ANA,
      amount: 300 * POINT,
      reason: '',
    });
    await deps.services.place.place({ opId: 'p1', userId: ANA, x: 2, y: 3, color: 4 });
    const worker = await deps.services.workers.link(ANA, 'laptop');
    await deps.services.web.openSession({ userId: ANA, name: 'Ana', roleIds: [] });
    await deps.services.games.playInstant('coinflip', {
      roundId: 'r1',
      userId: ANA,
      bet: 10,
      params: { side: 'heads' },
    });
    await deps.ledger.flush();

    const en = await deps.services.privacy.exportFor(deps.services, ANA, deps.i18n.for('en'));
    const de = await deps.services.privacy.exportFor(deps.services, ANA, deps.i18n.for('de'));
    expect(en.name).toBe(`cookiebot-data-${ANA}.json`);
    const file = JSON.parse((en.name.endsWith('.gz') ? gunzipSync(en.data) : en.data).toString('utf8'));
    const datei = JSON.parse(de.data.toString('utf8'));
    expect(file.about).toMatch(/^Everything this Discord bot stores about you/);
    expect(datei.about).toMatch(/^Alles, was dieser Discord-Bot über dich speichert/);
    expect(file.member).toBe(ANA);
    expect(file.summary.cookies).toBe(await deps.services.cookies.balance(ANA));
    expect(file.summary).toMatchObject({
      placePoints: 200,
      pixelsPainted: 1,
      workers: [worker._id],
    });
    expect(file.collections.items_cookies.what).toBe('Your Cookie balance');
    expect(datei.collections.items_cookies.what).toBe('Dein Keks-Kontostand');
    expect(datei.collections.place_pixel_events.what).toBe('Jeder Pixel, den du gemalt hast');
    // Every record names her (her id, or her worker's), and the give from Ben is hers too.
    for (const [, { documents }] of Object.entries<{ documents: unknown[] }>(file.collections)) {
      for (const doc of documents) expect(JSON.stringify(doc)).toMatch(new RegExp(`${ANA}|${worker._id}`));
    }
    expect(JSON.stringify(file.collections.ledger_events.documents)).toContain('cookies.give');
    expect(file.collections.identity_delegations.documents[0]._id).toBe(worker._id);
    // What would let the file's holder act as her, or see her next rounds, is not in it.
    expect(JSON.stringify(file)).not.toContain(worker.secret);
    expect(file.collections.identity_delegations.documents[0].secret).toBe(
      "[your worker's secret key: not shown]",
    );
    expect(datei.collections.web_sessions.documents[0]._id).toBe(
      '[hier steht ein Anmelde-Token: nicht gezeigt]',
    );
    const seed = await t.db.collection('games_fairness').findOne({ _id: ANA as never });
    expect(String(seed?.serverSeed).length).toBeGreaterThan(10);
    expect(JSON.stringify(file)).not.toContain(String(seed?.serverSeed));
    // Ben's profile is his, not hers.
    expect(JSON.stringify(file)).not.toContain('"Ben"');
    expect(en.documents).toBe(file.summary.documents);
  });
});
