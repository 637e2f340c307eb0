import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

/**
 * The code is written for MongoDB (tools/mongo-java-server/README.md, "The rule"): the server
 * the tests and a bot without MONGODB_URI run on is known only to `src/db/` (which starts it)
 * and `tools/` (its launcher, which patches what it lacks). No other production file names
 * it, in code or in comments, nor explains a query by what "every server" or "both servers"
 * answer (a Discord server, the product's own word, is no such explanation): a shape that server answers badly is fixed in its launcher, and a comment says
 * MongoDB's reason. A shape kept for that server's sake points at the page that says why
 * (POINTER), and says no more.
 */
const PRODUCTION = ['app/', 'src/', 'utils/', 'commands/', 'migrations/', 'web/'];
const ITS_OWN = ['src/db/'];
const EXTENSIONS = ['.ts', '.js', '.json', '.html', '.css'];
const POINTER = 'tools/mongo-java-server/README.md';

const NAMES: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /mongo-?java/i, what: 'mongo-java-server' },
  { pattern: /\bjava\b/i, what: 'Java' },
  { pattern: /MongoLauncher/, what: 'its launcher' },
  { pattern: /\bH2\b/, what: 'its H2 backend' },
  { pattern: /\bembedded\b/i, what: 'the embedded server or database' },
  {
    // A Discord server is a server too ("one value for every server"): what is refused is a
    // database server's behaviour given as a query's reason ("both servers answer …").
    pattern:
      /\b(every|both|either|neither) (database )?servers? (answers?|serves?|supports?|accepts?|reads?|returns?|handles?|does|do|can|cannot)\b/i,
    what: 'a query explained by what other servers serve',
  },
];

/**
 * Configuration, not an explanation: where the operator's choice of database is parsed and
 * shown. Each exception must still be needed, and only its own lines may name the server.
 */
const EXCEPTIONS: Readonly<Record<string, { lines: RegExp; why: string }>> = {
  'src/config.ts': {
    lines: /EMBEDDED_DB|embedded: '|'java'/,
    why: 'EMBEDDED_DB (auto, mongod, java) is parsed with the rest of the configuration',
  },
  'app/startupLine.ts': {
    lines: /database embedded/,
    why: "the startup line says which database the configuration chose ('database embedded, in memory')",
  },
};

function productionFiles(dir: string): string[] {
  if (ITS_OWN.includes(dir)) return [];
  return readdirSync(join(PROJECT_ROOT, dir)).flatMap((name) => {
    const path = `${dir}${name}`;
    if (statSync(join(PROJECT_ROOT, path)).isDirectory()) return productionFiles(`${path}/`);
    return EXTENSIONS.some((e) => path.endsWith(e)) ? [path] : [];
  });
}

/** Every line of a production file that names the server, with what it names. */
function namings(): { path: string; line: number; text: string; what: string }[] {
  return PRODUCTION.flatMap(productionFiles).flatMap((path) =>
    readFileSync(join(PROJECT_ROOT, path), 'utf8')
      .split('\n')
      .flatMap((text, i) =>
        NAMES.filter(({ pattern }) => pattern.test(text.replaceAll(POINTER, ''))).map(({ what }) => ({
          path,
          line: i + 1,
          text: text.trim(),
          what,
        })),
      ),
  );
}

describe('the embedded database server stays in src/db and tools', () => {
  it('no production file outside them names it, in code or in comments', () => {
    const found = namings().filter((n) => !EXCEPTIONS[n.path]?.lines.test(n.text));
    expect(found.map((n) => `${n.path}:${n.line} names ${n.what}: ${n.text}`)).toEqual([]);
  });

  it('every exception is still needed', () => {
    const used = new Set(namings().map((n) => n.path));
    expect(Object.keys(EXCEPTIONS).filter((path) => !used.has(path))).toEqual([]);
  });
});
