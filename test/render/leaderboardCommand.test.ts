import { beforeEach, describe, expect, it } from 'vitest';
import type { DrawnText } from '../../src/render/canvasTools.js';
import { renderLeaderboard } from '../../src/render/leaderboardImage.js';
import type { MemberLookup } from '../../src/render/memberFaces.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('leaderboard_command');

/** Discord as the leaderboard sees it: display names for members the bot has never seen. */
function fakeDiscord(names: Map<string, string>) {
  const asked: string[][] = [];
  const lookup: MemberLookup = {
    async find(_guildId, ids) {
      asked.push([...ids]);
      return new Map(
        ids
          .filter((id) => names.has(id))
          .map((id) => [id, { name: names.get(id) as string, avatarUrl: null }]),
      );
    },
    picture: async () => null,
  };
  return { lookup, asked };
}

describe('the Cookie leaderboard', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t);
    for (let i = 1; i <= 11; i++)
      await c.session.run(`as admin /admin cookies grant user:m${i} amount:${1_000 + i * 10}`);
    await c.session.run('as admin /admin cookies grant user:zoe amount:5');
    await c.session.run('as admin /admin cookies grant user:yves amount:3');
    c.take();
  });

  it('GIVEN a member outside the top 10 of all servers THEN they are told their own rank, in English and German', async () => {
    for (let i = 1; i <= 11; i++) await c.session.run(`as m${i} /cookies balance`);
    expect(await c.session.run('as zoe /cookies leaderboard scope:global')).toBe('ok');
    expect(c.take()).toContain('You are #12 with 5 🍪.');
    await c.session.run('!locale de');
    expect(await c.session.run('as yves /kekse rangliste bereich:alle')).toBe('ok');
    expect(c.take()).toContain('Du bist auf Platz 13 mit 3 🍪.');
  });

  it('GIVEN members who never ran a command THEN their names for the board of all servers are asked of Discord, only for them', async () => {
    const m1 = c.identities.get('m11').id;
    const { lookup, asked } = fakeDiscord(new Map([[m1, 'Marie Curie-Skłodowska']]));
    c.deps.members = lookup;
    expect(await c.session.run('as m2 /cookies balance')).toBe('ok');
    expect(await c.session.run('as zoe /cookies leaderboard scope:global')).toBe('ok');
    const m2 = c.identities.get('m2').id;
    expect(asked[0]).toContain(m1);
    expect(asked[0]).not.toContain(m2);
    expect(asked[0]).toHaveLength(9);
    // Eight of the ten stay nameless: the board reads on, asking only for those not asked yet.
    expect(asked.flat()).toHaveLength(new Set(asked.flat()).size);
  });

  it('GIVEN a long name and a wide board THEN the row shows it whole, not cut at 14 characters', async () => {
    const texts: DrawnText[] = [];
    await renderLeaderboard(
      { title: 'Cookie leaderboard', empty: '', formatValue: (v) => v.toLocaleString('en-US') },
      [{ rank: 1, name: 'Bartholomäus Maximilian Großmann', value: 9_999_999 }],
      { you: { rank: 37, name: 'Zoe (you)', value: 1_234 }, record: (x) => texts.push(x) },
    );
    const drawn = texts.map((x) => x.drawn);
    expect(drawn).toContain('Bartholomäus Maximilian Großmann');
    expect(drawn).toEqual(expect.arrayContaining(['#37', 'Zoe (you)', '1,234']));
  });
});
