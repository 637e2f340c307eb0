import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

/**
 * Every reference in the repository resolves, so a reader who follows one arrives somewhere:
 *
 * - a relative Markdown link `[text](path)` or `[text](path#anchor)` names a file that exists,
 *   and a heading there with that anchor;
 * - a reference to a section, `(docs/operating.md, "Backups")`, `ECONOMY.md's "Stealing"`,
 *   `COOKIE_LOGIC.md ("Poker")` or `"Workers" in docs/web.md`, names a document with a heading
 *   that is the section's name or starts with it (`"Money in play"` finds "Money in play: holds");
 * - no text points outside the repository: no product specification file, no task statement,
 *   no tracker number. The text says what the code does and why, or names a document here.
 *
 * Over every file git knows or would add (tracked, and untracked but not ignored), except the
 * changelog (whose history may name anything) and binary files. Each failure names file:line.
 */
const EXCLUDED = new Set(['CHANGELOG.md']);

/** Words that point outside the repository, each with what a failure calls it. */
const OUTSIDE: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /PRODUCT\.md/i, what: 'a specification outside the repository' },
  { pattern: /\bthe\s+brief\b/i, what: 'a task statement outside the repository' },
  { pattern: /\bissues?\s+#?\d+/i, what: 'a tracker number' },
];

const NAMED_DOC = String.raw`(?:README|ECONOMY|COOKIE_LOGIC|CONTRIBUTING)(?:\.md)?\b|(?:[\w.-]+/)*[\w.-]+\.md\b`;
/** `docs/operating.md, "Backups"`, `ECONOMY.md's "Stealing"`, `COOKIE_LOGIC.md ("Poker")`. */
const DOC_THEN_SECTION = new RegExp(String.raw`(${NAMED_DOC})(?:['’]s)?,?\s+\(?"([^"]+)"`, 'g');
/** `"Ambiguous failures" in ECONOMY.md`. */
const SECTION_IN_DOC = new RegExp(`"([^"]+)" in (?:the )?(${NAMED_DOC})`, 'g');
/** `[text](target)` and `![alt](target)`, with an optional title. */
const MARKDOWN_LINK = /!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: PROJECT_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(listed.toString('utf8').split('\0'))]
    .filter((path) => path && !EXCLUDED.has(path))
    .filter((path) => existsSync(join(PROJECT_ROOT, path)) && statSync(join(PROJECT_ROOT, path)).isFile());
}

function readText(path: string): string | undefined {
  const bytes = readFileSync(join(PROJECT_ROOT, path));
  return bytes.subarray(0, 8000).includes(0) ? undefined : bytes.toString('utf8');
}

/**
 * Each line with the next one appended (its comment marker dropped), so a phrase or a
 * reference broken over two lines of a comment is still read; a match counts on the line it
 * starts on.
 */
function linesWithNext(text: string): { line: number; joined: string; own: number }[] {
  const lines = text.split('\n');
  return lines.map((own, index) => {
    const next = (lines[index + 1] ?? '').replace(/^\s*(?:\*|\/\/+|#+|>)?\s*/, '');
    return { line: index + 1, joined: `${own} ${next}`, own: own.length };
  });
}

/** Words that point outside the repository, as `file:line: … "match"`. */
function outsideReferences(path: string, text: string): string[] {
  return linesWithNext(text).flatMap(({ line, joined, own }) =>
    OUTSIDE.flatMap(({ pattern, what }) => {
      const found = new RegExp(pattern.source, 'gi').exec(joined);
      return found && found.index < own ? [`${path}:${line}: names ${what}: "${found[0]}"`] : [];
    }),
  );
}

/** Plain text of a heading line: no `#`, no code or emphasis marks, links as their text. */
function headingText(line: string): string {
  return line
    .replace(/^#{1,6}\s+/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim();
}

/** Headings of a Markdown text, outside fenced code. */
function headingsOf(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').flatMap((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    return !fenced && /^#{1,6}\s/.test(line) ? [headingText(line)] : [];
  });
}

/** The anchors GitHub gives a text's headings: lower case, punctuation dropped, `-` for spaces. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headingsOf(markdown)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Whether `section` names one of the headings: the whole heading, or its start before `:`, ` (` or `,`. */
function namesHeading(section: string, headings: readonly string[]): boolean {
  const wanted = section.replace(/[`*]/g, '').trim().toLowerCase();
  return headings.some((heading) => {
    const text = heading.toLowerCase();
    return text === wanted || [':', ' (', ','].some((after) => text.startsWith(`${wanted}${after}`));
  });
}

/** The document a reference names: a bare name at the root, a path from the root or from the file. */
function resolveDoc(from: string, doc: string): string | undefined {
  const name = /\.md$/.test(doc) ? doc : `${doc}.md`;
  const candidates = [normalize(name), normalize(join(dirname(from), name))];
  return candidates.find((path) => existsSync(join(PROJECT_ROOT, path)));
}

/** Section references that name no heading of their document. */
function sectionProblems(path: string, text: string, readDoc: (doc: string) => string | undefined): string[] {
  return linesWithNext(text).flatMap(({ line, joined, own }) => {
    const found = [
      ...[...joined.matchAll(DOC_THEN_SECTION)].map((m) => ({
        at: m.index,
        doc: m[1],
        section: m[2],
        text: m[0],
      })),
      ...[...joined.matchAll(SECTION_IN_DOC)].map((m) => ({
        at: m.index,
        doc: m[2],
        section: m[1],
        text: m[0],
      })),
    ];
    return found
      .filter(({ at }) => at < own)
      .flatMap(({ doc, section, text: reference }) => {
        const target = resolveDoc(path, doc as string);
        const markdown = target === undefined ? undefined : readDoc(target);
        if (markdown === undefined) return [`${path}:${line}: ${reference}: no document ${doc}`];
        return namesHeading(section as string, headingsOf(markdown))
          ? []
          : [`${path}:${line}: ${reference}: ${target} has no section "${section}"`];
      });
  });
}

/** Relative links of a Markdown file that reach no file, or no heading of the file they reach. */
function linkProblems(
  path: string,
  markdown: string,
  readDoc: (doc: string) => string | undefined,
): string[] {
  let fenced = false;
  return markdown.split('\n').flatMap((raw, index) => {
    if (/^\s*(```|~~~)/.test(raw)) fenced = !fenced;
    if (fenced) return [];
    const line = raw.replace(/`[^`]*`/g, '``');
    return [...line.matchAll(MARKDOWN_LINK)].flatMap(([reference, target]) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target as string)) return [];
      const [file, anchor] = (target as string).split('#') as [string, string | undefined];
      const resolved =
        file === ''
          ? path
          : normalize(file.startsWith('/') ? file.slice(1) : join(dirname(path), decodeURI(file)));
      const where = `${path}:${index + 1}: ${reference}`;
      if (!existsSync(join(PROJECT_ROOT, resolved))) return [`${where}: no file ${resolved}`];
      if (anchor === undefined || !resolved.endsWith('.md')) return [];
      const doc = readDoc(resolved);
      return doc !== undefined && anchorsOf(doc).has(anchor)
        ? []
        : [`${where}: ${resolved} has no heading #${anchor}`];
    });
  });
}

describe('references in the repository', () => {
  const files = repositoryFiles();
  const texts = new Map(files.map((path) => [path, readText(path)]));
  const readDoc = (doc: string) => texts.get(doc) ?? readText(doc);

  it('GIVEN every Markdown file THEN each relative link reaches a file, and its anchor a heading', () => {
    const problems = files
      .filter((path) => path.endsWith('.md'))
      .flatMap((path) => linkProblems(path, texts.get(path) ?? '', readDoc));
    expect(problems).toEqual([]);
  });

  it('GIVEN every text file THEN each reference to a section names a heading of its document', () => {
    const problems = files.flatMap((path) => {
      const text = texts.get(path);
      return text === undefined ? [] : sectionProblems(path, text, readDoc);
    });
    expect(problems).toEqual([]);
  });

  it('GIVEN every text file THEN none points outside the repository', () => {
    const problems = files.flatMap((path) => {
      const text = texts.get(path);
      return text === undefined ? [] : outsideReferences(path, text);
    });
    expect(problems).toEqual([]);
  });

  it('GIVEN broken references THEN each is found with its file and line', () => {
    const q = '"';
    const doc = '# Title\n\n## Money in play: holds\n\n## Backups\n';
    const read = (name: string) => (name === 'ECONOMY.md' ? doc : undefined);
    const links = '[ok](../ECONOMY.md#backups) [gone](nowhere.md)\n[bad](../ECONOMY.md#restore)';
    expect(linkProblems('docs/a.md', links, read)).toEqual([
      'docs/a.md:1: [gone](nowhere.md): no file docs/nowhere.md',
      'docs/a.md:2: [bad](../ECONOMY.md#restore): ECONOMY.md has no heading #restore',
    ]);
    const code = [
      `// (ECONOMY.md, ${q}Money in play${q}) and (ECONOMY.md,`,
      `// ${q}Restore${q}), see ${q}Backups${q} in ECONOMY.md`,
      `// (NOWHERE.md, ${q}X${q})`,
    ].join('\n');
    expect(sectionProblems('src/a.ts', code, read)).toEqual([
      `src/a.ts:1: ECONOMY.md, ${q}Restore${q}: ECONOMY.md has no section ${q}Restore${q}`,
      `src/a.ts:3: NOWHERE.md, ${q}X${q}: no document NOWHERE.md`,
    ]);
    const outside = `see ${'PRODUCT'}.md\nas ${'the'} brief says\nfixed in ${'issue'} 26`;
    expect(outsideReferences('a.ts', outside).map((problem) => problem.split(':')[1])).toEqual([
      '1',
      '2',
      '3',
    ]);
  });
});
