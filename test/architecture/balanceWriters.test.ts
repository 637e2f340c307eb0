import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

const SCANNED = ['src', 'commands', 'utils', 'bench'];
/** The ledger owns balance writes; collections.ts only names the collections. */
const ALLOWED = ['utils/ledger/', 'src/db/collections.ts'];
const WRITE =
  /\b(?:cookies|placeWallets)\s*\.\s*(?:insertOne|insertMany|updateOne|updateMany|replaceOne|findOneAndUpdate|findOneAndReplace|findOneAndDelete|deleteOne|deleteMany|bulkWrite|drop)\b/;
const RAW_NAME = /['"`](?:items_cookies|place_wallets)['"`]/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Lines outside the ledger that write to, or name, a balance collection. */
function findBalanceWriters(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => {
    if (ALLOWED.some((allowed) => path.startsWith(allowed))) return [];
    return text
      .split('\n')
      .flatMap((line, i) =>
        WRITE.test(line) || RAW_NAME.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [],
      );
  });
}

describe('balance collections', () => {
  it('are written by the ledger only', () => {
    const files = SCANNED.flatMap((dir) => sourceFiles(join(PROJECT_ROOT, dir))).map((path) => ({
      path: relative(PROJECT_ROOT, path),
      text: readFileSync(path, 'utf8'),
    }));
    expect(files.length).toBeGreaterThan(10);
    expect(findBalanceWriters(files)).toEqual([]);
  });

  it('flags a command that updates cookies directly or by collection name', () => {
    const offenders = findBalanceWriters([
      {
        path: 'commands/steal.ts',
        text: 'await cols.cookies.updateOne({ _id: id }, { $inc: { cookies: 5 } });',
      },
      { path: 'src/games/dice.ts', text: "db.collection('place_wallets').findOne({})" },
      { path: 'utils/ledger/ledger.ts', text: 'await book.collection.updateOne(filter, update);' },
    ]);
    expect(offenders).toHaveLength(2);
  });
});
