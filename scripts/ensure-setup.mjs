#!/usr/bin/env node
// Runs before every npm script, with no dependencies of its own, so that each command
// works as the very first one after cloning: it installs what this machine lacks.
//  1. Debian packages node-canvas compiles against (when root with apt-get; else one line says which).
//  2. A JDK and Maven, for the offline MongoDB-compatible server (only when MONGODB_URI is unset).
//  3. Chromium, for the web page's browser tests (when root with apt-get).
//  4. npm dependencies (npm ci) when node_modules is missing or older than package-lock.json.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CANVAS_DEBS = [
  'build-essential',
  'pkg-config',
  'libcairo2-dev',
  'libpango1.0-dev',
  'libjpeg-dev',
  'libgif-dev',
  'librsvg2-dev',
];
const JAVA_DEBS = ['openjdk-17-jdk-headless', 'maven'];

function ok(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return !r.error && r.status === 0;
}

function run(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env });
  if (r.error || r.status !== 0) {
    console.error(`setup: "${cmd} ${args.join(' ')}" failed`);
    process.exit(1);
  }
}

let aptUpdated = false;
function aptInstall(packages, why) {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !ok('apt-get', ['--version'])) {
    console.error(`setup: ${why} needs these system packages; install them first: ${packages.join(' ')}`);
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) run('apt-get', ['update', '-qq'], env);
  aptUpdated = true;
  console.error(`setup: installing ${packages.join(' ')} (${why})`);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], env);
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`setup: Node.js >= 20.19 is required (this is ${process.versions.node})`);
  process.exit(1);
}

const canvasBuilt = existsSync(`${root}/node_modules/canvas/build/Release/canvas.node`);
const canvasHeaders =
  ok('pkg-config', ['--exists', 'cairo', 'pangocairo', 'librsvg-2.0', 'libjpeg']) &&
  existsSync('/usr/include/gif_lib.h');
if (!canvasBuilt && !canvasHeaders) aptInstall(CANVAS_DEBS, 'node-canvas (image rendering)');
if (!existsSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')) {
  aptInstall(['fonts-dejavu-core'], 'readable text in rendered images');
}

// The web page's tests drive a real browser: Debian's chromium (Playwright's own download
// is not reachable everywhere). Only the tests need it; a missing one is installed when possible.
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
if (!CHROMIUM.some((path) => existsSync(path))) {
  if (process.getuid?.() === 0 && ok('apt-get', ['--version']))
    aptInstall(['chromium'], 'the web page tests (a real browser)');
  else
    console.error(
      'setup: the web page tests need chromium (apt-get install chromium); the bot runs without it',
    );
}

if (!process.env.MONGODB_URI && !(ok('javac', ['-version']) && ok('mvn', ['-v']))) {
  aptInstall(JAVA_DEBS, 'the offline MongoDB-compatible server (mongo-java-server)');
}

// npm ci may rewrite package-lock.json, so compare its content, not its modification time.
const lockHash = createHash('sha256')
  .update(readFileSync(`${root}/package-lock.json`))
  .digest('hex');
const stamp = `${root}/node_modules/.installed-lock-sha256`;
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lockHash) {
  console.error('setup: installing npm dependencies (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund'], { ...process.env, MONGOMS_DISABLE_POSTINSTALL: '1' });
  writeFileSync(stamp, lockHash);
}
