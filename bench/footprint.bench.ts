/**
 * What the bot holds in memory while it works (docs/operating.md, "Running it as a service"): the
 * compiled bot (`npm run build`, then node with the options and entry of `npm run start:prod`,
 * as the systemd unit runs it) plays `examples/tour.txt` in its console on the embedded persistent
 * database in a temporary DATA_DIR, while this process reads the resident memory (VmRSS in
 * /proc/<pid>/status) of the bot's node process and of every process under it every 25 ms.
 * The Java process is the database; anything else under the bot counts in the total only.
 * Last line (peaks; the total is the largest sum read at one instant):
 * `footprint: rss_mb_total=<n> node_mb=<n> db_mb=<n>`
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseArgsStringToArgv } from 'string-argv';
import { z } from 'zod';
import { fromRoot } from '../src/paths.js';

const { values } = parseArgs({
  options: {
    tour: { type: 'string', default: 'examples/tour.txt' },
    'every-ms': { type: 'string', default: '25' },
  },
});
const EVERY_MS = Number(values['every-ms']);

/** `npm run start:prod`'s command line without npm: its node options and the compiled entry. */
function startProdArgs(): string[] {
  const pkg = z
    .object({ scripts: z.object({ 'start:prod': z.string() }) })
    .parse(JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')));
  const [command, ...args] = parseArgsStringToArgv(pkg.scripts['start:prod']);
  if (command !== 'node') throw new Error(`start:prod must run node directly, not ${command}`);
  return args;
}
const NODE_ARGS = startProdArgs();
const ENTRY = NODE_ARGS.find((a) => a.endsWith('.js')) ?? '';

interface Sample {
  nodeKb: number;
  dbKb: number;
  otherKb: number;
}

function rssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) : 0;
  } catch {
    return 0; // it ended between the listing and the read
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
        .split(' ')
        .filter((s) => s.trim() !== '')
        .map(Number),
    );
  } catch {
    return [];
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The bot's own RSS, and its descendants' split into the database (java) and the rest. */
function sample(root: number, seen: Map<number, string>): Sample {
  const result: Sample = { nodeKb: rssKb(root), dbKb: 0, otherKb: 0 };
  const queue = childrenOf(root);
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    const command = commandOf(pid);
    if (!seen.has(pid)) seen.set(pid, command);
    if (command === 'java') result.dbKb += rssKb(pid);
    else result.otherKb += rssKb(pid);
    queue.push(...childrenOf(pid));
  }
  return result;
}

const mb = (kb: number) => Math.round(kb / 1024);

if (!existsSync(fromRoot(ENTRY))) {
  console.error(`${ENTRY} is missing: run npm run build first (npm run bench:footprint does)`);
  process.exit(2);
}
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-footprint-'));
try {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    // The database a bot without MONGODB_URI uses on a machine without mongod: the H2 file.
    EMBEDDED_DB: process.env.EMBEDDED_DB ?? 'java',
  };
  delete env.DISCORD_TOKEN;
  delete env.MONGODB_URI;
  const started = performance.now();
  const bot = spawn(process.execPath, [...NODE_ARGS, '--script', values.tour, '--persistent'], {
    cwd: fromRoot(),
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  bot.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number>((resolve) => bot.once('exit', (code) => resolve(code ?? 1)));
  const pid = bot.pid;
  if (pid === undefined) throw new Error('the bot did not start');

  const seen = new Map<number, string>();
  const peak = { totalKb: 0, nodeKb: 0, dbKb: 0, otherKb: 0 };
  let samples = 0;
  const timer = setInterval(() => {
    const s = sample(pid, seen);
    if (s.nodeKb === 0) return;
    samples += 1;
    peak.totalKb = Math.max(peak.totalKb, s.nodeKb + s.dbKb + s.otherKb);
    peak.nodeKb = Math.max(peak.nodeKb, s.nodeKb);
    peak.dbKb = Math.max(peak.dbKb, s.dbKb);
    peak.otherKb = Math.max(peak.otherKb, s.otherKb);
  }, EVERY_MS);
  const code = await exited;
  clearInterval(timer);

  const lines = output.split('\n').filter((l) => l.startsWith('> ')).length;
  const last = output.trimEnd().split('\n').at(-1) ?? '';
  console.log(
    `tour: ${lines} lines in ${((performance.now() - started) / 1000).toFixed(1)} s, exit ${code}: ${last}`,
  );
  console.log(
    `processes under the bot: ${[...seen.values()].join(', ') || 'none'} (other than java: peak ${mb(peak.otherKb)} MB); ${samples} samples`,
  );
  if (code !== 0) {
    console.error(output.slice(-4000));
    process.exitCode = 1;
  }
  console.log(
    `footprint: rss_mb_total=${mb(peak.totalKb)} node_mb=${mb(peak.nodeKb)} db_mb=${mb(peak.dbKb)}`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
