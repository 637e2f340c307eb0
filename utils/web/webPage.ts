import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { fromRoot } from '../../src/paths.js';

export interface WebPage {
  html: string;
  js: string;
  css: string;
}

let built: Promise<WebPage> | null = null;

/**
 * The `/place` page from `web/` (TypeScript bundled by esbuild in memory when the server
 * starts, about 50 ms; nothing is written to disk). One build per process.
 */
export function webPage(): Promise<WebPage> {
  built ??= (async () => {
    const [bundle, html, css] = await Promise.all([
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
    return { html, css, js: bundle.outputFiles[0]?.text ?? '' };
  })();
  return built;
}
