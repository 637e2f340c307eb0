import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { LOCALES, type Locale } from '../../src/i18n/i18n.js';
import { fromRoot } from '../../src/paths.js';
import { escapeHtml, webTexts } from './webText.js';

export interface WebPage {
  /** The page in each language (`web/index.html` with its `{{page.…}}` texts filled in). */
  html: Record<Locale, string>;
  js: string;
  css: string;
}

let built: Promise<WebPage> | null = null;

/** `web/index.html` in one language: its `lang` and every `{{key}}` from the page's catalog. */
function translate(template: string, locale: Locale): string {
  const { t } = webTexts(locale);
  return template
    .replace('<html lang="en">', `<html lang="${locale}">`)
    .replace(/\{\{([\w.]+)\}\}/g, (_, key: string) => escapeHtml(t(`web:${key}`)));
}

/**
 * The `/place` page from `web/` (TypeScript bundled by esbuild in memory when the server
 * starts, about 50 ms; nothing is written to disk). One build per process.
 */
export function webPage(): Promise<WebPage> {
  built ??= (async () => {
    const [bundle, template, css] = await Promise.all([
      build({
        entryPoints: [fromRoot('web', 'main.ts')],
        bundle: true,
        write: false,
        minify: true,
        format: 'esm',
        target: ['es2022'],
        sourcemap: false,
        logLevel: 'silent',
      }),
      readFile(fromRoot('web', 'index.html'), 'utf8'),
      readFile(fromRoot('web', 'style.css'), 'utf8'),
    ]);
    const html = Object.fromEntries(LOCALES.map((l) => [l, translate(template, l)])) as Record<
      Locale,
      string
    >;
    return { html, css, js: bundle.outputFiles[0]?.text ?? '' };
  })();
  return built;
}
