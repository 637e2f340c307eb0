import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root (this file lives in src/). */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export function fromRoot(...parts: string[]): string {
  return [PROJECT_ROOT.replace(/\/$/, ''), ...parts].join('/');
}
