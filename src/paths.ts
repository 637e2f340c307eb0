import { fileURLToPath } from 'node:url';

/**
 * Absolute path of the repository root. This file lives in src/, or in dist/src/ once
 * `npm run build` compiled it; what the app reads beside its code (`web/`, `tools/`, `.cache/`)
 * stays at the root, so the compiled copy looks one folder further up.
 */
export const PROJECT_ROOT = fileURLToPath(
  new URL(import.meta.url.endsWith('/dist/src/paths.js') ? '../..' : '..', import.meta.url),
);

export function fromRoot(...parts: string[]): string {
  return [PROJECT_ROOT.replace(/\/$/, ''), ...parts].join('/');
}
