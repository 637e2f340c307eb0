#!/usr/bin/env node
// `npm run build`: the compiled bot in dist/ for `npm run start:prod` and the systemd unit
// (docs/operating.md, "Running it as a service"). dist/ is emptied first, so a module removed from
// the source does not linger there. Then dist/ gets a Biome configuration that leaves it out:
// `npm test` lints the whole checkout (`biome check .`), and compiled JavaScript is no source.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
writeFileSync(
  path.join(dist, 'biome.json'),
  `${JSON.stringify({ root: false, files: { includes: ['!**'] } }, null, 2)}\n`,
);
console.error(`build: dist/ from tsconfig.build.json; start it with npm run start:prod`);
