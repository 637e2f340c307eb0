import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

/**
 * Dependencies point one way (CONTRIBUTING, "Where things live"): the kernel (`src/`) knows no
 * feature, no command and not the money layer above it; only the composition root, which
 * builds the bot out of all of them, imports upward. Read through the compiler: every import,
 * export-from, `import()` and module augmentation of every file.
 *
 * DEBT lists the upward imports that still wait for their move (issue "One direction through
 * the house"). The test fails on a new upward import, and on a debt entry that is gone, so the
 * list can only shrink and always says what is left.
 */
const KERNEL = 'src/';
const ABOVE_THE_KERNEL = ['utils/', 'commands/'];

/** Entry points and the code that assembles the bot from its features. */
const COMPOSITION_ROOT = new Set([
  'src/app.ts',
  'src/botDeps.ts',
  'src/checkInvariants.ts',
  'src/console/runConsole.ts',
  'src/discord/deployCommands.ts',
  'src/discord/runBot.ts',
  'src/http/webProcess.ts',
  'src/verifyRound.ts',
  'src/worker.ts',
]);

/** `file -> imported file` pairs still to move, each with where it is going. */
const DEBT = new Set([
  // The money layer's types in the kernel's contracts: BotDeps and Feature name Ledger and Holds.
  'src/features/feature.ts -> utils/ledger/ledger.ts',
  'src/interactions/types.ts -> utils/holds/holds.ts',
  // The money layer's type in the assembly's contract (its checks are given the ledger).
  'src/features/assemble.ts -> utils/ledger/ledger.ts',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(PROJECT_ROOT, dir)).flatMap((name) => {
    const path = `${dir}${name}`;
    if (statSync(join(PROJECT_ROOT, path)).isDirectory()) return sourceFiles(`${path}/`);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative module a file names, resolved to a repository path (`.js` read as `.ts`). */
function importsOf(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const named: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) named.push(node.moduleSpecifier.text);
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      named.push(node.name.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      named.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return named
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => normalize(join(path, '..', specifier)).replace(/\.js$/, '.ts'));
}

function upwardImports(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) =>
    importsOf(path, text)
      .filter((target) => ABOVE_THE_KERNEL.some((above) => target.startsWith(above)))
      .map((target) => `${path} -> ${target}`),
  );
}

describe('the direction of imports', () => {
  it('GIVEN the kernel THEN it imports nothing above it, except in the composition root and the listed debt', () => {
    const kernel = sourceFiles(KERNEL)
      .filter((path) => !COMPOSITION_ROOT.has(path))
      .map((path) => ({ path, text: readFileSync(join(PROJECT_ROOT, path), 'utf8') }));
    const found = new Set(upwardImports(kernel));
    expect([...found].filter((edge) => !DEBT.has(edge)).sort(), 'new upward imports').toEqual([]);
    expect([...DEBT].filter((edge) => !found.has(edge)).sort(), 'debt paid: strike it from DEBT').toEqual([]);
  });

  it('GIVEN a kernel file that imports a feature in any of the four ways THEN each is found', () => {
    const offender = {
      path: 'src/offender.ts',
      text: [
        "import { a } from '../utils/a/a.js';",
        "export { b } from '../utils/b/b.js';",
        "declare module '../utils/c/errors.js' { interface X { y: true } }",
        "const d = await import('../commands/d/index.js');",
        "import { fine } from './kernel.js';",
      ].join('\n'),
    };
    expect(upwardImports([offender])).toEqual([
      'src/offender.ts -> utils/a/a.ts',
      'src/offender.ts -> utils/b/b.ts',
      'src/offender.ts -> utils/c/errors.ts',
      'src/offender.ts -> commands/d/index.ts',
    ]);
  });
});
