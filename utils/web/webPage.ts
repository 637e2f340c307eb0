import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { LOCALES, type Locale } from '../../src/i18n/i18n.js';
import { fromRoot } from '../../src/paths.js';
import { escapeHtml, webTexts } from './webText.js';

export interface WebPage {
  /** The page in each language (its HTML template with the `{{…}}` texts filled in). */
  html: Record<Locale, string>;
  js: string;
  css: string;
}

/** The two pages with a script: the live canvas (`web/`) and the moderators' portal (`web/admin/`). */
type PageName = 'place' | 'portal';
const SOURCES: Record<PageName, { dir: string[] }> = {
  place: { dir: ['web'] },
  portal: { dir: ['web', 'admin'] },
};

const built = new Map<PageName, Promise<WebPage>>();

/** A template in one language: its `lang` and every `{{key}}` from the page's catalog. */
function translate(template: string, locale: Locale): string {
  const { t } = webTexts(locale);
  return template
    .replace('<html lang="en">', `<html lang="${locale}">`)
    .replace(/\{\{([\w.]+)\}\}/g, (_, key: string) => escapeHtml(t(`web:${key}`)));
}

/**
 * A page from its folder (`index.html`, `style.css`, `main.ts`): the TypeScript bundled by
 * esbuild in memory when the page is first asked for (about 50 ms; nothing is written to
 * disk). One build per page and process.
 */
function bundle(name: PageName): Promise<WebPage> {
  let page = built.get(name);
  if (!page) {
    const dir = SOURCES[name].dir;
    page = (async () => {
      const [output, template, css] = await Promise.all([
        build({
          entryPoints: [fromRoot(...dir, 'main.ts')],
          bundle: true,
          write: false,
          minify: true,
          format: 'esm',
          target: ['es2022'],
          sourcemap: false,
          logLevel: 'silent',
        }),
        readFile(fromRoot(...dir, 'index.html'), 'utf8'),
        readFile(fromRoot(...dir, 'style.css'), 'utf8'),
      ]);
      const html = Object.fromEntries(LOCALES.map((l) => [l, translate(template, l)])) as Record<
        Locale,
        string
      >;
      return { html, css, js: output.outputFiles[0]?.text ?? '' };
    })();
    built.set(name, page);
  }
  return page;
}

/** The `/place` page from `web/`. */
export function webPage(): Promise<WebPage> {
  return bundle('place');
}

/** The moderators' portal (`/admin`) from `web/admin/`; its stylesheet adds to the canvas page's. */
export function portalPage(): Promise<WebPage> {
  return bundle('portal');
}
