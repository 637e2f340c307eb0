import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

/**
 * Who may touch what, checked through the TypeScript compiler: a rule applies to every
 * expression whose type is a MongoDB collection or database, however it was reached
 * (renamed, destructured, passed along), so an alias cannot slip past it.
 *
 * - Balance collections (Cookies, Place wallets) are used by the ledger only.
 * - Commands touch no collection and no database at all: they call services.
 * - In features (`utils/<feature>/`), only stores (`*Store.ts`) touch collections.
 * - Value moves through the ledger (`debit`, `credit`, `transfer`, `payFromHouse`,
 *   `payToHouse`) only inside the money layer (`utils/money/`): Cookies through
 *   `cookieEconomy.ts`, Place points through `placeEconomy.ts`, money in play through `holds/`
 *   (benchmarks measure the ledger itself).
 * - Only the money layer asks the ledger about operations or closes accounts, and only
 *   `utils/money/holds/` touches the holds' store: a feature holds money through `Holds`, and
 *   asks about a payment through its currency's module (`PlaceEconomy.paidForPixel`), never
 *   through its own probes of the ledger. The economies keep their ledger private, so nothing
 *   reaches through them (the compiler refuses `economy.ledger`).
 */
const BALANCE_DOCS = new Set(['CookieAccountDoc', 'PlaceWalletDoc', 'BalanceDoc']);
/** The money layer's one folder: the ledger, the holds, the two currencies' economies. */
const MONEY = 'utils/money/';
const LEDGER = 'utils/money/ledger/';
/** Name the balance collections and create their indexes: the ledger's documents. */
const COLLECTION_DEFINITIONS = 'utils/money/ledger/documents.ts';
const SCANNED = ['app/', 'commands/', 'utils/', 'src/', 'sim/', 'bench/', 'migrations/'];
/**
 * A migration rewrites a shape of the past (migrations/002 the ledger's old markers): no store
 * of today knows that shape, so a migration names its collections itself, balances included.
 */
const MIGRATIONS = 'migrations/';
const RAW_BALANCE_NAME = /^(?:items_cookies|place_wallets)$/;
const MOVES = new Set(['debit', 'credit', 'transfer', 'payFromHouse', 'payToHouse']);
const HOLDS = 'utils/money/holds/';
const MAY_MOVE_VALUE = [MONEY, 'bench/'];
/** Ledger methods of the money layer alone: deciding what became of an operation or an account. */
const MONEY_LAYER_ONLY = new Set(['closeAccount', 'decideAbandoned', 'recorded']);

function isMongo(symbol: ts.Symbol | undefined, name: string): boolean {
  return (
    symbol?.getName() === name &&
    (symbol.declarations ?? []).some((d) => d.getSourceFile().fileName.includes('/node_modules/mongodb/'))
  );
}

function documentTypeName(checker: ts.TypeChecker, type: ts.Type): string | undefined {
  const args = checker.getTypeArguments(type as ts.TypeReference);
  return args[0]?.getSymbol()?.getName() ?? args[0]?.aliasSymbol?.getName();
}

/** Every rule broken in the program's own files under `root`, as "path:line: why". */
function dataAccessProblems(program: ts.Program, root: string): string[] {
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  for (const file of program.getSourceFiles()) {
    const path = relative(root, file.fileName);
    if (!SCANNED.some((dir) => path.startsWith(dir))) continue;
    const report = (node: ts.Node, why: string) => {
      const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      problems.push(`${path}:${line}: ${why}`);
    };
    const visit = (node: ts.Node): void => {
      if (
        ts.isStringLiteral(node) &&
        RAW_BALANCE_NAME.test(node.text) &&
        path !== COLLECTION_DEFINITIONS &&
        !path.startsWith(MIGRATIONS)
      ) {
        report(node, `names the balance collection ${node.text}`);
      }
      if (ts.isPropertyAccessExpression(node)) {
        const type = checker.getTypeAtLocation(node.expression);
        const symbol = type.getSymbol() ?? type.aliasSymbol;
        const isLedger =
          symbol?.getName() === 'Ledger' &&
          (symbol.declarations ?? []).some((d) =>
            d.getSourceFile().fileName.endsWith('utils/money/ledger/ledger.ts'),
          );
        if (
          isLedger &&
          MOVES.has(node.name.text) &&
          !MAY_MOVE_VALUE.some((allowed) => path.startsWith(allowed))
        ) {
          report(
            node,
            `${node.expression.getText(file)}.${node.name.text} moves value outside utils/money/cookieEconomy.ts`,
          );
        }
        if (isLedger && MONEY_LAYER_ONLY.has(node.name.text) && !path.startsWith(MONEY)) {
          report(node, `${node.expression.getText(file)}.${node.name.text} belongs to the money layer`);
        }
        const isHoldStore =
          symbol?.getName() === 'HoldStore' &&
          (symbol.declarations ?? []).some((d) =>
            d.getSourceFile().fileName.endsWith('utils/money/holds/holdStore.ts'),
          );
        if (isHoldStore && !path.startsWith(HOLDS)) {
          report(
            node,
            `${node.expression.getText(file)}.${node.name.text}: holds are changed through Holds only`,
          );
        }
        const isCollection = isMongo(symbol, 'Collection');
        if (isCollection || isMongo(symbol, 'Db')) {
          const doc = isCollection ? documentTypeName(checker, type) : undefined;
          const what = `${node.expression.getText(file)}.${node.name.text}`;
          if (doc && BALANCE_DOCS.has(doc) && !path.startsWith(LEDGER) && path !== COLLECTION_DEFINITIONS) {
            report(node, `${what} touches a balance collection outside the ledger`);
          } else if (path.startsWith('commands/')) {
            report(node, `${what}: commands call services, not the database`);
          } else if (path.startsWith('utils/') && !path.startsWith(LEDGER) && !/Store\.ts$/.test(path)) {
            report(node, `${what}: only a feature's store touches its collections`);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return problems;
}

/**
 * The project as `tsc` sees it (tests left out), plus files that exist only in memory; with
 * `alone`, only those files and what they import (a program a fraction of the size).
 */
function projectProgram(extraFiles: Record<string, string> = {}, alone = false): ts.Program {
  const config = ts.readConfigFile(join(PROJECT_ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, PROJECT_ROOT);
  const host = ts.createCompilerHost(parsed.options);
  const virtual = new Map(Object.entries(extraFiles).map(([path, text]) => [join(PROJECT_ROOT, path), text]));
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
  host.readFile = (name) => virtual.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = virtual.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, language, ...rest)
      : ts.createSourceFile(name, text, language, true);
  };
  const project = alone ? [] : parsed.fileNames.filter((f) => !f.includes('/test/'));
  return ts.createProgram([...project, ...virtual.keys()], parsed.options, host);
}

/**
 * Type-checking the whole project takes about 45 s on a quiet machine and several times that on
 * a busy one: the deadline is generous, the check is the same.
 */
const TYPE_CHECK_DEADLINE_MS = 600_000;

describe('data access', () => {
  it('balance collections are used by the ledger only, collections by stores only, and commands use neither', {
    timeout: TYPE_CHECK_DEADLINE_MS,
  }, () => {
    const program = projectProgram();
    expect(program.getSourceFiles().filter((f) => f.fileName.includes('/commands/')).length).toBeGreaterThan(
      5,
    );
    expect(dataAccessProblems(program, PROJECT_ROOT)).toEqual([]);
  });

  it('catches a write through an alias, a command that reaches the database, and a raw collection name', {
    timeout: TYPE_CHECK_DEADLINE_MS,
  }, () => {
    const withOffenders = projectProgram(
      {
        'commands/steal.ts': [
          "import type { AppDeps } from '../src/deps.js';",
          'export async function steal(app: AppDeps) {',
          '  const { cols } = app;',
          '  const wallet = cols.cookies;',
          "  await wallet.updateOne({ _id: 'x' }, { $inc: { cookies: 5 } });",
          "  await app.db.collection('anything').findOne({});",
          '}',
        ].join('\n'),
        'utils/dice/rules.ts': [
          "import type { Db } from 'mongodb';",
          "export const peek = (db: Db) => db.collection('place_wallets').findOne({});",
        ].join('\n'),
        'utils/dice/payout.ts': [
          "import type { Ledger } from '../money/ledger/ledger.js';",
          'export const pay = (house: Ledger) =>',
          "  house.payFromHouse({ opId: 'x', to: 'y', amount: 1, kind: 'dice.win' });",
        ].join('\n'),
        'utils/dice/probe.ts': [
          "import type { HoldStore } from '../money/holds/holdStore.js';",
          "import type { Ledger } from '../money/ledger/ledger.js';",
          'export async function probe(ledger: Ledger, holds: HoldStore) {',
          "  await ledger.closeAccount('cookies', 'hold:x');",
          "  await holds.move('x', ['held'], { state: 'posted' });",
          '}',
        ].join('\n'),
      },
      true,
    );
    expect(dataAccessProblems(withOffenders, PROJECT_ROOT)).toEqual([
      'commands/steal.ts:5: wallet.updateOne touches a balance collection outside the ledger',
      "commands/steal.ts:6: app.db.collection('anything').findOne: commands call services, not the database",
      'commands/steal.ts:6: app.db.collection: commands call services, not the database',
      "utils/dice/rules.ts:2: db.collection('place_wallets').findOne: only a feature's store touches its collections",
      "utils/dice/rules.ts:2: db.collection: only a feature's store touches its collections",
      'utils/dice/rules.ts:2: names the balance collection place_wallets',
      'utils/dice/payout.ts:3: house.payFromHouse moves value outside utils/money/cookieEconomy.ts',
      'utils/dice/probe.ts:4: ledger.closeAccount belongs to the money layer',
      'utils/dice/probe.ts:5: holds.move: holds are changed through Holds only',
    ]);
  });
});
