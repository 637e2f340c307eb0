import { describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { useTestDatabase } from '../support/database.js';

const t = useTestDatabase('cleanup');

describe('/admin cleanup inactive', () => {
  it('GIVEN inactive members THEN their profiles go, except those who earned Place points or placed pixels', async () => {
    const c = makeConsole(t);
    for (const line of [
      '/place me',
      'as bob /place me',
      'as zoe /cookies balance',
      'as admin /admin place grant target:you points:150',
      '/place pixel x:1 y:1 color:red',
    ]) {
      await c.session.run(line);
    }
    await c.session.run('as bob /place me');
    await c.session.run('!wait 40d');
    c.take();
    await c.session.run('as admin /admin cleanup inactive days:30');
    expect(c.take()).toContain(
      'Removed 2 inactive profile(s) (not seen for 30 days); kept 1 that earned Place points or placed pixels.',
    );
    const left = (await t.db.collection('profiles').find({}).toArray()).map((p) =>
      c.identities.nameOf(String(p._id)),
    );
    expect(left.sort()).toEqual(['admin', 'you']);
  });
});
