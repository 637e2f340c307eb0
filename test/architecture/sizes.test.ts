import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

/**
 * No god files (CONTRIBUTING, "Where things live"): no production TypeScript file over 400
 * lines, no function over 80. A function is every function-like node with a body (functions,
 * methods, arrows, accessors, constructors), measured from its first line to its last; a class
 * is not a function, its methods are.
 */
const PRODUCTION = ['app/', 'src/', 'utils/', 'commands/', 'migrations/', 'sim/', 'web/'];
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

/** A ceiling of its own for one file (`path`) or one function (`path#name`), and why. */
type Exceptions = Readonly<Record<string, { lines: number; why: string }>>;

/**
 * What reads better whole than split to meet the number. Each exception must still be needed:
 * one whose file or function is back within the rule, or names nothing that exists, fails.
 */
const EXCEPTIONS: Exceptions = {
  'src/features/assemble.ts#assembleFeatures': {
    lines: 110,
    why: 'every central list is combined in one place, each beside the others, from what the features bring',
  },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(PROJECT_ROOT, dir)).flatMap((name) => {
    const path = `${dir}${name}`;
    if (statSync(join(PROJECT_ROOT, path)).isDirectory()) return sourceFiles(`${path}/`);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

interface Measured {
  path: string;
  lines: number;
  functions: { name: string; line: number; lines: number }[];
}

function measure(path: string, text: string): Measured {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const functions: Measured['functions'] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = lineOf(node.getStart(source));
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '<anonymous>';
      functions.push({ name, line: first, lines: lineOf(node.end) - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), functions };
}

/** Every file and function over its ceiling, and every exception no longer needed or naming nothing. */
function tooLong(measured: Measured[], exceptions: Exceptions = {}): string[] {
  const needed = new Set<string>();
  const ceiling = (key: string, max: number, lines: number) => {
    const exception = exceptions[key];
    if (exception && lines > max) needed.add(key);
    return exception?.lines ?? max;
  };
  const over = measured.flatMap(({ path, lines, functions }) => [
    ...(lines > ceiling(path, MAX_FILE_LINES, lines) ? [`${path}: ${lines} lines`] : []),
    ...functions
      .filter((f) => f.lines > ceiling(`${path}#${f.name}`, MAX_FUNCTION_LINES, f.lines))
      .map((f) => `${path}:${f.line} ${f.name}: ${f.lines} lines`),
  ]);
  const named = new Set(
    measured.flatMap(({ path, functions }) => [path, ...functions.map((f) => `${path}#${f.name}`)]),
  );
  const stale = Object.keys(exceptions)
    .filter((key) => !needed.has(key))
    .map(
      (key) =>
        `${key}: ${named.has(key) ? 'within the rule, no exception needed' : 'names nothing that exists'}`,
    );
  return [...over, ...stale];
}

describe('the size of files and functions', () => {
  it(`GIVEN every production file THEN none has over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES}`, () => {
    const measured = PRODUCTION.flatMap((dir) => sourceFiles(dir)).map((path) =>
      measure(path, readFileSync(join(PROJECT_ROOT, path), 'utf8')),
    );
    expect(measured.length).toBeGreaterThan(100);
    expect(tooLong(measured, EXCEPTIONS)).toEqual([]);
  });

  it('GIVEN the named exceptions THEN each says why', () => {
    for (const [key, { why, lines }] of Object.entries(EXCEPTIONS)) {
      expect(why.length, key).toBeGreaterThan(20);
      expect(lines, key).toBeGreaterThan(key.includes('#') ? MAX_FUNCTION_LINES : MAX_FILE_LINES);
    }
  });

  it('GIVEN exceptions THEN one over its own ceiling, one no longer needed and one naming nothing all fail', () => {
    const long = (n: number) => `${'// filler\n'.repeat(n)}`;
    const measured = [
      measure('utils/x/kept.ts', long(420)),
      measure('utils/x/over.ts', long(470)),
      measure('utils/x/shrunk.ts', long(390)),
    ];
    const exceptions: Exceptions = {
      'utils/x/kept.ts': { lines: 450, why: 'reads best whole' },
      'utils/x/over.ts': { lines: 450, why: 'reads best whole' },
      'utils/x/shrunk.ts': { lines: 450, why: 'reads best whole' },
      'utils/x/gone.ts#run': { lines: 100, why: 'reads best whole' },
    };
    expect(tooLong(measured, exceptions)).toEqual([
      'utils/x/over.ts: 470 lines',
      'utils/x/shrunk.ts: within the rule, no exception needed',
      'utils/x/gone.ts#run: names nothing that exists',
    ]);
  });

  it('GIVEN a long file and a long method inside a class THEN both are found, the class itself is not', () => {
    const body = Array.from({ length: 81 }, (_, i) => `    const v${i} = ${i};`).join('\n');
    const text = `export class Big {\n  method(): void {\n${body}\n  }\n}\n${'// filler\n'.repeat(320)}`;
    expect(tooLong([measure('utils/x/big.ts', text)])).toEqual([
      'utils/x/big.ts: 405 lines',
      'utils/x/big.ts:2 method: 83 lines',
    ]);
  });
});
