import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pinoRoll from 'pino-roll';
import { ASSEMBLY } from '../commands/index.js';
import { ManualClock, RunningClock } from '../src/clock.js';
import type { Config } from '../src/config.js';
import { ConsoleIdentities } from '../src/console/consoleIdentities.js';
import { consolePostTransport, createConsoleOutput } from '../src/console/consoleResponder.js';
import { ConsoleRoles } from '../src/console/consoleRoles.js';
import { ConsoleSession, DEFAULT_MEMBER } from '../src/console/consoleSession.js';
import { describeServer } from '../src/db/connect.js';
import { fileAttachmentReader } from '../src/discord/attachmentReader.js';
import { pageUrl, serveHttp } from '../src/http/serve.js';
import { InteractionRuntime } from '../src/interactions/runtime.js';
import type { BotDeps } from '../src/interactions/types.js';
import { createLogger, type Logger } from '../src/logger.js';
import { cryptoRng, seededRng } from '../src/rng.js';
import { prepareBotDeps, startTimers } from './botDeps.js';
import { type App, openApp } from './openApp.js';

export const CONSOLE_ADMIN = 'admin';

/** The instant every script starts at. */
const SCRIPT_START = '2026-06-01T09:00:00Z';

/**
 * Where a run's images go: a folder of its own under out/, named for the script (or `console`)
 * and the moment it started, so two runs never overwrite each other's pictures.
 */
function runFolder(script: string | null): string {
  const stamp = new Date()
    .toISOString()
    .replace(/\.\d{3}Z$/, '')
    .replaceAll(':', '')
    .replace('T', '-');
  const name = script === null || script === '-' ? 'console' : path.basename(script).replace(/\.[^.]*$/, '');
  return `out/${name}-${stamp}-${process.pid}`;
}

interface ConsoleArgs {
  script: string | null;
  persistent: boolean;
}

function parseArgs(argv: string[]): ConsoleArgs {
  const at = argv.indexOf('--script');
  const script = at >= 0 ? (argv[at + 1] ?? null) : null;
  if (at >= 0 && !script) throw new Error('--script needs a file (or - for standard input)');
  return { script, persistent: consolePersistent(argv) };
}

/** Scripted demos start from an empty in-memory database so they replay identically. */
export function consolePersistent(argv: string[]): boolean {
  return argv.includes('--persistent') || (!argv.includes('--script') && !argv.includes('--fresh'));
}

/**
 * The bot without Discord: the same command modules and runtime, driven by lines typed
 * at a prompt or read from a script. Logs go to a file a day under DATA_DIR, not the screen.
 */
export async function runLocalConsole(config: Config, argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const write = (text: string) => process.stdout.write(text);
  const { log, logFile } = await openConsoleLog(config);

  const identities = new ConsoleIdentities();
  const admin = identities.get(CONSOLE_ADMIN);
  const consoleConfig = withConsoleBackups(withConsoleAdmin(config, admin.id), args.persistent);
  // A script's clock starts at the same instant on every run and stands still between `!wait`
  // lines, so it replays identically (dates on cards and in replies too); at the prompt the
  // clock runs like a live bot's (plus what `!wait` skipped), and so do its timers.
  const clock = args.script === null ? new RunningClock() : new ManualClock(new Date(SCRIPT_START));
  // A script deals the same cards and rolls the same dice on every run
  // (docs/console.md, "The local console").
  const rng = args.script === null ? cryptoRng : seededRng('console-script');
  const app = await openApp(consoleConfig, log, { clock, rng, persistent: args.persistent });
  try {
    await app.startLedgerRecovery();
    let session: ConsoleSession | null = null;
    const roles = new ConsoleRoles((change) => session?.onRoleChange(change));
    const output = createConsoleOutput({
      outDir: runFolder(args.script),
      clock,
      write,
      nameOf: (id) => identities.nameOf(id),
      channelNameOf: (id) => identities.channelNameOf(id),
      roleNameOf: (id) => identities.roleNameOf(id),
      locale: () => session?.locale ?? config.consoleLocale,
      onMessage: (message) => session?.onMessage(message),
    });
    const deps = await prepareBotDeps(app, ASSEMBLY, {
      transport: consolePostTransport(output),
      roles,
      attachments: fileAttachmentReader,
    });
    const runtime = new InteractionRuntime(deps, ASSEMBLY);
    session = new ConsoleSession({
      runtime,
      clock,
      identities,
      roles,
      output,
      scheduler: deps.scheduler,
      locale: config.consoleLocale,
    });

    const words = deps.i18n.for(config.consoleLocale);
    write(
      [
        words.t('core:console.welcome', { database: describeServer(app.database.server), logFile }),
        words.t('core:console.youAre', { member: DEFAULT_MEMBER, admin: CONSOLE_ADMIN }),
        words.t('core:console.try'),
        '',
      ].join('\n'),
    );

    if (args.script !== null) return await runScript(args.script, session, deps, write);
    return await runPrompt(deps, app, session, config, write);
  } finally {
    await app.close();
  }
}

/**
 * The console's log: a file a day under DATA_DIR (`console.<date>.<n>.log`), the newest
 * LOG_RETENTION_DAYS kept (pino-roll), written synchronously so a script's last lines are in
 * it when it ends; secrets redacted as everywhere (src/logger.ts).
 */
async function openConsoleLog(config: Config): Promise<{ log: Logger; logFile: string }> {
  mkdirSync(config.mongo.dataDir, { recursive: true });
  const stream = await pinoRoll({
    file: path.join(config.mongo.dataDir, 'console'),
    extension: '.log',
    frequency: 'daily',
    dateFormat: 'yyyy-MM-dd',
    limit: { count: config.logRetentionDays },
    sync: true,
  });
  const log = createLogger(config.logLevel === 'silent' ? 'silent' : 'info', stream, {
    secrets: [config.discord.token, config.http.discordClientSecret],
  });
  return { log, logFile: stream.file };
}

/** A persistent console keeps its own backups (DATA_DIR/backups) unless BACKUP_DIR says where. */
function withConsoleBackups(config: Config, persistent: boolean): Config {
  const dir = config.backup.dir ?? (persistent ? path.join(config.mongo.dataDir, 'backups') : null);
  return { ...config, backup: { ...config.backup, dir } };
}

function withConsoleAdmin(config: Config, adminId: string): Config {
  return {
    ...config,
    // The console's clock is simulated; posts are printed, so there is no channel to pace.
    postMinIntervalMs: 0,
    authority: {
      ...config.authority,
      adminUserIds: [...config.authority.adminUserIds, adminId],
      moderatorUserIds: [...config.authority.moderatorUserIds, adminId],
    },
  };
}

/** Runs every line of the script (a file, or `-` for standard input); 1 if any line failed. */
async function runScript(
  script: string,
  session: ConsoleSession,
  deps: BotDeps,
  write: (text: string) => void,
): Promise<number> {
  const text = readFileSync(script === '-' ? 0 : script, 'utf8');
  let failed = 0;
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    write(`> ${line.trim()}\n`);
    const result = await session.run(line);
    if (result === 'failed') {
      failed += 1;
      write(`${deps.i18n.for(session.locale).t('core:console.lineFailed', { line: index + 1 })}\n`);
    }
    if (result === 'quit') break;
    write('\n');
  }
  const words = deps.i18n.for(session.locale);
  write(
    `${failed === 0 ? words.t('core:console.finished') : words.t('core:console.finishedFailed', { count: failed })}\n`,
  );
  return failed === 0 ? 0 : 1;
}

/** The interactive prompt, with the timers running and the canvas served on the web. */
async function runPrompt(
  deps: BotDeps,
  app: App,
  session: ConsoleSession,
  config: Config,
  write: (text: string) => void,
): Promise<number> {
  // The canvas on the web, on HTTP_PORT (a script ends at once, so only the prompt serves).
  const http = await serveHttp(deps, ASSEMBLY, { db: app.db }).catch((error: Error) => {
    write(`The web page is not served: ${error.message} (set HTTP_PORT to another port, or 0).\n`);
    return null;
  });
  const url = pageUrl(deps, http);
  if (http && url) {
    write(`The live canvas: ${url} (run /place web for a sign-in link).\n`);
    write(
      `The moderators' portal: ${url.replace(/\/place$/, '/admin')} (signed in as a moderator or admin).\n`,
    );
  }
  deps.scheduler.start(config.scheduler.pollMs);
  await startTimers(deps, app, ASSEMBLY);
  const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: '> ' });
  rl.prompt();
  for await (const line of rl) {
    if ((await session.run(line)) === 'quit') break;
    rl.prompt();
  }
  rl.close();
  await http?.close();
  await deps.scheduler.stop();
  return 0;
}
