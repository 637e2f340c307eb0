import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runNode } from '../support/nodeProcess.js';

function runConsole(args: string[], input?: string) {
  return runNode(['app/main.ts', ...args], {
    input,
    env: {
      DISCORD_TOKEN: '',
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB_NAME: `tour_${Date.now()}`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'console-data-')),
    },
  });
}

describe('npm start -- --script', () => {
  it('GIVEN the same script run twice THEN both runs write the same images, each into a folder of its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-'));
    const script = join(dir, 'replay.txt');
    writeFileSync(
      script,
      ['as admin /admin cookies grant user:you amount:1234', '!wait 5m', '/cookies profile'].join('\n'),
    );
    const images: Buffer[] = [];
    const folders = new Set<string>();
    for (const _ of [1, 2]) {
      const { code, stdout } = await runConsole(['--script', script]);
      expect(code).toBe(0);
      // Whenever it runs, a script starts at the same instant: dates on cards and replies too.
      expect(stdout).toContain('(clock is now 2026-06-01T09:05:00.000Z');
      const file = /attachment: (out\/replay-[\d-]+\/\d+-profile\.png)/.exec(stdout)?.[1] as string;
      folders.add(file.split('/')[1] as string);
      images.push(readFileSync(file));
    }
    expect(folders.size).toBe(2);
    expect(images[0]?.equals(images[1] as Buffer)).toBe(true);
  });

  it('runs the shipped tour through every command and exits 0', async () => {
    const { code, stdout } = await runConsole(['--script', 'examples/tour.txt']);
    expect(stdout).toContain('script finished: every line ran');
    expect(stdout).toContain('✅ Already done: you gave 50 🍪 to @bob.');
    // A role given by hand counts on the member's next line.
    expect(stdout).toMatch(
      /> !role you @Painters\n\(a moderator gave @you the role @Painters\)\n\n> \/place pixel x:31 y:31 color:white\n\[ephemeral\] 🎨 Painted \(31, 31\)/,
    );
    expect(stdout).toMatch(/attachment: out\/tour-[\d-]+\/\d+-leaderboard\.png \(960x\d+\)/);
    expect(stdout).toMatch(/attachment: out\/tour-[\d-]+\/\d+-profile\.png \(900x540\)/);
    expect(stdout).toContain('✅ Round');
    expect(stdout).toMatch(/\[post #heists\]/);
    // Fresh server: the refusal names the admin's command; a heist with no channel is told in its message.
    expect(stdout).toContain('an admin adds them with /admin vault fund amount:…');
    expect(stdout).toContain('the next heist on this server can start in');
    expect(stdout).toMatch(
      /\[edit #general\]\n┌ 🏦 Vault heist\n│ @bob planned a heist[\s\S]*?│ (🚓 Caught|💰)/,
    );
    expect(stdout).toMatch(/🏆 @\w+ wins the pot of 400/);
    expect(stdout).toContain('poker cash-out');
    // A sit-and-go played to its end: the pool of 300 paid 65/35 by place.
    expect(stdout).toMatch(/🏁 The tournament is over:\n│ 🥇 @\w+ 195 🍪\n│ 🥈 @\w+ 105 🍪\n│ 🥉 @\w+\n/);
    expect(stdout).toMatch(/attachment: out\/tour-[\d-]+\/\d+-canvas\.png \(\d+x\d+\)/);
    expect(stdout).toMatch(/attachment: out\/tour-[\d-]+\/\d+-timelapse\.gif/);
    expect(stdout).toMatch(/\[post #canvas\] 🖼️ Neural Place at version \d+/);
    // The hunt: draws posted, active time paid, a pixel paid for by hunt rewards alone (the
    // hunter was never granted points), the bonus path announced and paying double.
    expect(stdout).toMatch(
      /\[post #hunt\] 🎯 Hunt, round 1: 1 tip drawn\.\n@hunter #1: \d+\.\d\d %, a new best! \+/,
    );
    expect(stdout).toContain('⏱️ Active time: +20 points.');
    expect(stdout).not.toMatch(/granted [\d,]+ points to @hunter/);
    expect(stdout).toMatch(
      /> as hunter \/place pixel x:30 y:30 color:green\n\[ephemeral\] 🎨 Painted \(30, 30\)/,
    );
    expect(stdout).toMatch(/\[post #hunt\] 🧭 The bonus path of the next draw is \d/);
    expect(stdout).toMatch(/draw \+50 points → @hunter ×2 · round 1, tip #\d+, on the bonus path/);
    expect(stdout).toMatch(/\[post #hunt\] 🎲 Round 1 is over: its target was (\d+, ){7}\d+\./);
    expect(stdout).toContain('Round 1 has already ended; the hunt is in round 2. Nothing changed.');
    // Forgotten on request: their pixel stays, painted by a former member, in either language.
    expect(stdout).toMatch(/attachment: out\/tour-[\d-]+\/\d+-cookiebot-data-\d+\.json \(\d+ bytes\)/);
    expect(stdout).toMatch(
      /> as admin \/place info x:30 y:30\n\[ephemeral\] \(30, 30\) is green \(#00CC78\), painted by a former member/,
    );
    expect(stdout).toContain('vor 10 Minuten von einem ehemaligen Mitglied gemalt');
    for (const command of [
      '/help',
      '/cookies balance',
      '/cookies give',
      '/cookies leaderboard',
      '/settings show',
      '/settings set',
      '/admin cookies grant',
      '/cookies collect',
      '/cookies steal',
      '/cookies history',
      '/cookies profile',
      '/admin bakery post',
      '/admin vault fund',
      '/games coinflip',
      '/games dice',
      '/games slots',
      '/games blackjack',
      '/games fairness',
      '/games verify',
      '/vault heist',
      '/vault show',
      '/poker create',
      '/place pixel',
      '/place view',
      '/place timelapse',
      '/admin place rollback',
      '/hunt join',
      '/hunt tip',
      '/hunt status',
      '/hunt history',
      '/hunt leaderboard',
      '/hunt worker link',
      '/admin place earnings',
      '/admin hunt reroll',
      '/privacy info',
      '/privacy export',
      '/privacy forget',
      '/admin privacy forget',
    ]) {
      // Typed by a member or by someone else (`as admin /admin …`), with its subcommand.
      expect(stdout).toMatch(new RegExp(`^> (as \\w+ )?${command}( |$)`, 'm'));
    }
    expect(code).toBe(0);
  });

  it('runs the German tour: German command names, German replies, German numbers', async () => {
    const { code, stdout } = await runConsole(['--script', 'examples/tour.de.txt']);
    expect(stdout).toContain('Skript beendet: Jede Zeile lief.');
    expect(stdout).toContain('> /kekse schenken mitglied:bob anzahl:5000');
    expect(stdout).toContain('❌ Nicht genug: Du hast 1.500 🍪, brauchst aber 5.000 🍪.');
    expect(stdout).toContain('✅ Du hast @bob 1.234 🍪 geschenkt. Dir bleiben 266 🍪.');
    expect(stdout).toContain('[post #protokoll] 🎁 @admin hat @you 1.500 🍪 gutgeschrieben: Willkommen');
    expect(stdout).toContain('Das Angebot endet in 10 Minuten.');
    expect(stdout).toContain('🍪 Gesammelt');
    expect(stdout).toContain('Letzter Überfall:');
    // The glossary's words work as typed: an/aus, colours by German name, /jagd, kopf.
    expect(stdout).toContain('games.enabled ist jetzt an (vorher aus).');
    expect(stdout).toContain('die legt ein Admin mit /admin tresor einlegen anzahl:… hinein.');
    expect(stdout).toMatch(/\[edit #general\]\n┌ 🏦 Tresorraub\n[\s\S]*?│ (🚓 Erwischt|💰)/);
    expect(stdout).toMatch(/🏆 @\w+ gewinnt den Pot von \d+\n│ @\w+ zeigt /);
    expect(stdout).toContain('┌ Hilfe: Die Jagd');
    expect(stdout).toMatch(/Ziehung \+25 Punkte → @you ×1 · Runde 1, Tipp #1 · /);
    expect(stdout).toContain('🎨 (1, 1) in Rot (#FF4500) gemalt – 100 Punkte (Stand 1).');
    expect(stdout).toMatch(
      /> \/jagd verlauf\n\[ephemeral\] Runde 1 · #1 · 50, 50, 50, 50, 50, 50, 50, 50 → \d+,\d\d %/,
    );
    expect(stdout).toContain('┌ Deine Daten und dieser Bot');
    expect(stdout).toContain('📦 Hier ist alles, was der Bot über dich speichert:');
    expect(stdout).toContain('Es wurde nichts gelöscht.');
    expect(code).toBe(0);
  });

  it('exits non-zero when a line fails', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'console-script-')), 'bad.txt');
    writeFileSync(file, '/help\n/cookies give user:bob\n');
    const { code, stdout } = await runConsole(['--script', file]);
    expect(stdout).toContain('error: /cookies give needs amount:…');
    expect(stdout).toContain('script finished: 1 line failed');
    expect(code).toBe(1);
  });

  it('reads lines typed at the prompt until !quit', async () => {
    const { code, stdout } = await runConsole(
      [],
      'as admin /admin cookies grant user:kai amount:3\n!quit\n/help\n',
    );
    expect(stdout).toContain('Granted 3 🍪 to @kai');
    expect(stdout).not.toContain('What you can do');
    expect(code).toBe(0);
  });
});
