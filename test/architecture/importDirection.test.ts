import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

/**
 * Dependencies point one way (CONTRIBUTING, "Where things live"), read through the compiler:
 * every import, export-from, `import()` and module augmentation of every file.
 *
 *   kernel (src/)  <-  money layer  <-  features  <-  registry  <-  composition root
 *
 * - The kernel knows nothing above it. It names the money layer's services as slots
 *   (`MoneyLayer` in src/deps.ts) that the money layer fills by declaration merging.
 * - The money layer (the ledger, the holds, the two currencies' kinds and amounts) knows the
 *   kernel only.
 * - A feature (`utils/<name>/` and `commands/<name>/`) knows the kernel, the money layer, its
 *   own two folders, and the `utils/` of the features it builds on (BUILDS_ON, acyclic); its
 *   commands also the command kit (`commands/*.ts`). Never another feature's `commands/`.
 * - The migrations (`migrations/`, the steps of the stored shapes) know the kernel only, and
 *   only the composition root runs them.
 * - Only the composition root imports the registry (`commands/index.ts`); the tools beside
 *   the product (`sim/`, `bench/`, `shots/`, `test/`) are entry points of their own and may too.
 */
const KERNEL = 'src/';

/** The composition root: the entry points and the code that builds the bot from its features. */
const COMPOSITION_ROOT = 'app/';

/** The money layer: the ledger, the holds, the two currencies' economies and amounts. */
const MONEY_LAYER = 'utils/money/';
const REGISTRY = 'commands/index.ts';

/** The features whose `utils/` a feature builds on. A feature not named builds on none. */
const BUILDS_ON: Readonly<Record<string, readonly string[]>> = {
  // The canvas and the hunt's scores on the web; the moderators' portal: the audit trail and
  // the economy's health, bans, grants and clawbacks of either currency, and each server's shop.
  web: ['place', 'hunt', 'admin', 'moderation', 'cookies', 'shop'],
  // Games pay from and into the house vault.
  games: ['vault'],
  // A tip and a worker's active time ask the moderators' bans.
  hunt: ['moderation'],
  // `/admin place grant` goes through the hunt's admin grant (a worker's points to its owner);
  // every placement asks the moderators' bans.
  place: ['hunt', 'moderation'],
  // The shop's padlock and streak shield act inside a steal and a collect.
  shop: ['cookies'],
  // `/privacy info` tells how long a web session lives.
  privacy: ['web'],
  // A poker hand's deck is shuffled from its seeds as the house games' decks are.
  poker: ['games'],
};

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

type Layer =
  | 'kernel'
  | 'root'
  | 'migrations'
  | 'money'
  | 'registry'
  | 'kit'
  | { feature: string; side: 'utils' | 'commands' };

function layerOf(path: string): Layer | null {
  if (path.startsWith(COMPOSITION_ROOT)) return 'root';
  if (path.startsWith('migrations/')) return 'migrations';
  if (path.startsWith(KERNEL)) return 'kernel';
  if (path.startsWith(MONEY_LAYER)) return 'money';
  if (path === REGISTRY) return 'registry';
  const [top, second, third] = path.split('/');
  if ((top === 'utils' || top === 'commands') && second && third) return { feature: second, side: top };
  if (top === 'commands') return 'kit';
  return null; // sim/, bench/, shots/, test/, web/: outside the product's layers
}

/** Why `from` may not import `to`, or null when it may. */
function refusal(from: Layer, to: Layer): string | null {
  // The steps of old shapes know the kernel only; the composition root runs them.
  if (from === 'migrations')
    return to === 'kernel' || to === 'migrations' ? null : 'a migration imports above the kernel';
  if (to === 'migrations') return from === 'root' ? null : 'only the composition root runs the migrations';
  if (from === 'root' || to === 'kernel') return null;
  if (from === 'kernel')
    return to === 'root' ? 'the kernel imports the composition root' : 'the kernel imports above it';
  if (to === 'root') return 'only entry points import the composition root';
  if (to === 'registry') return 'only the composition root imports the registry';
  if (from === 'money') return to === 'money' ? null : 'the money layer imports a feature';
  if (to === 'money') return null;
  if (from === 'registry') return null;
  if (from === 'kit') return to === 'kit' ? null : 'the command kit imports a feature';
  if (typeof from === 'string') return 'unknown layer';
  if (to === 'kit') return from.side === 'commands' ? null : "a feature's utils/ imports the command kit";
  if (typeof to === 'string') return 'unknown layer';
  if (to.feature === from.feature)
    return from.side === 'utils' && to.side === 'commands' ? 'utils/ imports its commands/' : null;
  if (to.side === 'commands') return "a feature imports another feature's commands/";
  return BUILDS_ON[from.feature]?.includes(to.feature)
    ? null
    : `${from.feature} does not build on ${to.feature}`;
}

function wrongImports(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => {
    const from = layerOf(path);
    if (!from) return [];
    return importsOf(path, text).flatMap((target) => {
      const to = layerOf(target);
      const why = to ? refusal(from, to) : null;
      return why ? [`${path} -> ${target}: ${why}`] : [];
    });
  });
}

function productFiles(): { path: string; text: string }[] {
  return ['app/', 'src/', 'utils/', 'commands/', 'migrations/']
    .flatMap((dir) => sourceFiles(dir))
    .map((path) => ({ path, text: readFileSync(join(PROJECT_ROOT, path), 'utf8') }));
}

describe('the direction of imports', () => {
  it('GIVEN every file of the product THEN each import points down the layers', () => {
    expect(wrongImports(productFiles())).toEqual([]);
  });

  it('GIVEN the features that build on others THEN no feature builds on itself through them', () => {
    const cycle = (feature: string, path: string[]): string[] | null => {
      if (path.includes(feature)) return [...path, feature];
      for (const next of BUILDS_ON[feature] ?? []) {
        const found = cycle(next, [...path, feature]);
        if (found) return found;
      }
      return null;
    };
    for (const feature of Object.keys(BUILDS_ON)) expect(cycle(feature, [])).toBeNull();
  });

  it('GIVEN a file that breaks each rule in any of the four ways of importing THEN each is found', () => {
    const offenders = [
      {
        path: 'src/offender.ts',
        text: [
          "import { a } from '../utils/a/a.js';",
          "export { b } from '../utils/b/b.js';",
          "declare module '../utils/c/errors.js' { interface X { y: true } }",
          "const d = await import('../commands/d/index.js');",
          "import { fine } from './kernel.js';",
          "import { root } from '../app/openApp.js';",
        ].join('\n'),
      },
      {
        path: 'utils/money/ledger/offender.ts',
        text: "import { place } from '../../place/placeService.js';",
      },
      {
        path: 'utils/poker/offender.ts',
        text: [
          "import { fine } from '../money/holds/holds.js';",
          "import { alsoFine } from '../../src/errors.js';",
          "import { place } from '../place/placeService.js';",
          "import { kit } from '../../commands/options.js';",
          "import { registry } from '../../commands/index.js';",
        ].join('\n'),
      },
      {
        path: 'commands/web/offender.ts',
        text: [
          "import { builds } from '../../utils/place/placeService.js';",
          "import { own } from '../../utils/web/webService.js';",
          "import { kit } from '../options.js';",
          "import { other } from '../place/index.js';",
        ].join('\n'),
      },
    ];
    expect(wrongImports(offenders)).toEqual([
      'src/offender.ts -> utils/a/a.ts: the kernel imports above it',
      'src/offender.ts -> utils/b/b.ts: the kernel imports above it',
      'src/offender.ts -> utils/c/errors.ts: the kernel imports above it',
      'src/offender.ts -> commands/d/index.ts: the kernel imports above it',
      'src/offender.ts -> app/openApp.ts: the kernel imports the composition root',
      'utils/money/ledger/offender.ts -> utils/place/placeService.ts: the money layer imports a feature',
      'utils/poker/offender.ts -> utils/place/placeService.ts: poker does not build on place',
      "utils/poker/offender.ts -> commands/options.ts: a feature's utils/ imports the command kit",
      'utils/poker/offender.ts -> commands/index.ts: only the composition root imports the registry',
      "commands/web/offender.ts -> commands/place/index.ts: a feature imports another feature's commands/",
    ]);
  });
});
