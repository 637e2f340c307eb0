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

function tooLong(measured: Measured[]): string[] {
  return measured.flatMap(({ path, lines, functions }) => [
    ...(lines > MAX_FILE_LINES ? [`${path}: ${lines} lines`] : []),
    ...functions
      .filter((f) => f.lines > MAX_FUNCTION_LINES)
      .map((f) => `${path}:${f.line} ${f.name}: ${f.lines} lines`),
  ]);
}

describe('the size of files and functions', () => {
  it(`GIVEN every production file THEN none has over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES}`, () => {
    const measured = PRODUCTION.flatMap((dir) => sourceFiles(dir)).map((path) =>
      measure(path, readFileSync(join(PROJECT_ROOT, path), 'utf8')),
    );
    expect(measured.length).toBeGreaterThan(100);
    expect(tooLong(measured)).toEqual([]);
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
