import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { lookup } from '../../src/i18n/i18n.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { COOKIE_KINDS } from '../../utils/money/cookieEconomy.js';
import { PLACE_KINDS } from '../../utils/money/placeEconomy.js';

/**
 * Every text key the code names literally (`'vault:admin.fund.funded'`) exists in English and
 * German, in the namespace the registry assembles: a text moved between catalogs cannot leave
 * a caller reading a key that is gone. Keys built at run time (`games:${game}.title`) are
 * checked where they are built (the house games' registry test, the catalogs test).
 */
const KEY = /^([a-z][a-zA-Z]*):([\w]+(?:\.[\w]+)+|[\w]+)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(PROJECT_ROOT, dir)).flatMap((name) => {
    const path = `${dir}${name}`;
    if (statSync(join(PROJECT_ROOT, path)).isDirectory()) return sourceFiles(`${path}/`);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function literalKeys(path: string): { key: string; namespace: string; rest: string }[] {
  const source = ts.createSourceFile(
    path,
    readFileSync(join(PROJECT_ROOT, path), 'utf8'),
    ts.ScriptTarget.Latest,
  );
  const found: { key: string; namespace: string; rest: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const match = KEY.exec(node.text);
      if (match?.[1] && match[2] && match[1] in ASSEMBLY.messages) {
        found.push({ key: node.text, namespace: match[1], rest: match[2] });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the text keys the code names', () => {
  it('GIVEN every literal key in the product THEN it has a text in English and in German', () => {
    const files = ['app/', 'src/', 'utils/', 'commands/'].flatMap((dir) => sourceFiles(dir));
    const keys = files.flatMap((path) => literalKeys(path).map((k) => ({ ...k, path })));
    expect(keys.length).toBeGreaterThan(300);
    const missing = keys.flatMap(({ key, namespace, rest, path }) =>
      (['en', 'de'] as const)
        .filter((locale) => {
          const catalog = ASSEMBLY.messages[namespace]?.[locale];
          if (catalog === undefined) return true;
          // A plural is read by its forms (`footer_one`, `footer_other`); a group by its children.
          const forms = [rest, `${rest}_one`, `${rest}_other`];
          return forms.every((form) => lookup(catalog, form) === undefined) && !isGroup(catalog, rest);
        })
        .map((locale) => `${path}: ${key} (${locale})`),
    );
    expect(missing).toEqual([]);
  });

  it('GIVEN every kind of ledger movement THEN it has a label in English and in German (the history reads them)', () => {
    const labels = [
      ...Object.values(COOKIE_KINDS).map((kind) => `cookies:kinds.${kind.replace('.', '_')}`),
      ...Object.values(PLACE_KINDS).map((kind) => `place:kinds.${kind.replace('.', '_')}`),
    ];
    const missing = labels.flatMap((key) => {
      const [namespace = '', rest = ''] = key.split(':');
      return (['en', 'de'] as const)
        .filter((locale) => lookup(ASSEMBLY.messages[namespace]?.[locale] ?? {}, rest) === undefined)
        .map((locale) => `${key} (${locale})`);
    });
    expect(labels.length).toBe(Object.keys(COOKIE_KINDS).length + Object.keys(PLACE_KINDS).length);
    expect(missing).toEqual([]);
  });
});

function isGroup(catalog: Parameters<typeof lookup>[0], path: string): boolean {
  let node: unknown = catalog;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'object' && node !== null;
}
