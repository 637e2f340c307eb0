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
      'Removed 2 inactive profiles (not seen for 30 days). Kept 1 that earned Place points or painted pixels.',
    );
    const left = (await t.db.collection('profiles').find({}).toArray()).map((p) =>
      c.identities.nameOf(String(p._id)),
    );
    expect(left.sort()).toEqual(['admin', 'you']);
    // The server's list keeps only who was seen there within the 30 days: the admin, just now.
    const seen = await c.deps.serverMembers.members('100000000000000001');
    expect([...seen.values()]).toEqual(['admin']);
  });

  it('GIVEN a German admin and one inactive member THEN the reply counts in the singular, in German', async () => {
    const c = makeConsole(t);
    await t.db.collection('profiles').deleteMany({});
    await c.session.run('!locale de');
    await c.session.run('as bob /kekse kontostand');
    await c.session.run('!wait 2d');
    c.take();
    await c.session.run('as admin /admin aufräumen inaktive tage:1');
    expect(c.take()).toContain('🧹 1 inaktives Profil entfernt (seit 1 Tag nicht gesehen).');
  });
});
