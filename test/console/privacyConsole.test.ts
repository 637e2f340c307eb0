import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

/** What a member sees of `/privacy` and a moderator of `/admin privacy forget`, in both languages. */
const t = useTestDatabase('console_privacy');

const attachment = (text: string) => /attachment: (\S+\.json) \((\d+) bytes\)/.exec(text)?.[1];

describe('/privacy in the console', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t);
  });

  it('GIVEN a member WHEN they ask what is kept, export it and have it forgotten THEN each answer is theirs, the file is readable JSON, and the books still balance', async () => {
    await c.session.run('as admin /admin cookies grant user:mara amount:120');
    await c.session.run('as mara /privacy info');
    const info = c.take();
    expect(info).toContain('Your data and this bot');
    expect(info).toContain('web sessions: 30 days');
    expect(info).toContain('Backups: the newest 14 are kept, so a copy of old data lives up to 14 days');
    expect(info).toContain('/privacy forget: erase it.');

    expect(await c.session.run('as mara /privacy export')).toBe('ok');
    const exported = c.take();
    expect(exported).toMatch(/Here is everything the bot stores about you: \d+ records in one file/);
    const file = attachment(exported);
    expect(file).toBeDefined();
    const data = JSON.parse(readFileSync(file as string, 'utf8'));
    expect(data.summary.cookies).toBe(120);
    // A second export so soon waits: each one reads every collection.
    expect(await c.session.run('as mara /privacy export')).toBe('refused');
    c.take();

    await c.session.run('as mara /privacy forget');
    expect(c.take()).toContain(
      'Erase your data? Your profile, web sessions, workers and cooldowns are deleted.',
    );
    expect(await c.session.run('as mara !click Erase my data')).toBe('ok');
    expect(c.take()).toMatch(
      /Done\. The bot no longer knows you\. Records now naming a former member: \d+ · deleted: \d+\./,
    );
    await c.session.run('as admin /cookies balance user:mara');
    expect(c.take()).toContain('has 0 🍪');
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN the German console WHEN a moderator erases a member on their request THEN it asks first, in German, and the audit names the pseudonym only', async () => {
    await c.session.run('as admin /admin cookies grant user:jonas amount:75');
    await c.session.run('as admin /settings set key:admin.audit_channel value:#audit');
    await c.session.run('!locale de');
    c.take();
    await c.session.run('as jonas /datenschutz info');
    expect(c.take()).toContain('Deine Daten und dieser Bot');
    await c.session.run('as admin /admin datenschutz vergessen mitglied:jonas');
    const prompt = c.take();
    expect(prompt).toContain('Die Daten von @jonas löschen?');
    expect(prompt).toContain('Der Kontostand (75 🍪) geht an den Tresor');
    expect(await c.session.run('as admin !click Daten löschen')).toBe('ok');
    const done = c.take();
    const pseudonym = /heißt jetzt (former-[0-9a-f]{10})\./.exec(done)?.[1];
    expect(pseudonym).toBeDefined();
    await c.session.run('!wait 1m');
    const audit = done + c.take();
    expect(audit).toContain(
      `[post #audit] 🗑️ Die Daten eines Mitglieds wurden von @admin auf Wunsch des Mitglieds gelöscht; es heißt jetzt ${pseudonym}. Kekse an den Tresor: 75 🍪`,
    );
    expect(audit).not.toContain('jonas');
    // A member's own confirmation is theirs alone, and an old one asks again.
    await c.session.run('as lena /datenschutz vergessen');
    c.take();
    await c.session.run('!wait 11m');
    c.take();
    expect(await c.session.run('as lena !click Meine Daten löschen')).toBe('refused');
    expect(c.take()).toContain('Diese Rückfrage ist älter als 10 Minuten und gilt nicht mehr.');
  });
});
