import { createBotDeps } from '../../app/botDeps.js';
import type { AppDeps } from '../../app/openApp.js';
import { ASSEMBLY } from '../../commands/index.js';
import { type Clock, ManualClock, systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import type { Assembly } from '../../src/features/assemble.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { createLogger } from '../../src/logger.js';
import { type ChannelPost, DmClosed, type PostTransport } from '../../src/posting/channelPoster.js';
import { cryptoRng, type Rng } from '../../src/rng.js';
import type { MemberRoles } from '../../src/roles/memberRoles.js';
import { Ledger, type LedgerHooks } from '../../utils/money/ledger/ledger.js';
import type { TestDatabase } from './database.js';

export const ADMIN_ID = '800000000000000001';
export const MEMBER_ID = '800000000000000002';
export const OTHER_ID = '800000000000000003';

/** Channel posts kept in memory; `refuse` makes a channel fail like one the bot may not post in. */
export class RecordingTransport implements PostTransport {
  readonly posts: { channelId: string; post: ChannelPost }[] = [];
  readonly refuse = new Map<string, Error>();

  readonly edits: { channelId: string; messageId: string; post: ChannelPost }[] = [];
  readonly dms: { userId: string; post: ChannelPost }[] = [];
  /** Members who take no direct messages from the bot. */
  readonly closedDms = new Set<string>();

  async sendDm(userId: string, post: ChannelPost): Promise<void> {
    if (this.closedDms.has(userId)) throw new DmClosed('the member takes no direct messages from the bot');
    this.dms.push({ userId, post });
  }

  async send(channelId: string, post: ChannelPost): Promise<void> {
    const failure = this.refuse.get(channelId);
    if (failure) throw failure;
    // What members see; the nonce is the request's (test/discord checks Discord keeps to it).
    const { nonce: _, ...shown } = post;
    this.posts.push({ channelId, post: shown });
  }

  async edit(channelId: string, messageId: string, post: ChannelPost): Promise<void> {
    this.edits.push({ channelId, messageId, post });
  }
}

/** The app-level deps over a test database (what `openApp` gives a real process). */
export function makeAppDeps(
  t: Pick<TestDatabase, 'db' | 'cols'>,
  env: Record<string, string> = {},
  parts: { hooks?: LedgerHooks; rng?: Rng; wallClock?: Clock } = {},
): AppDeps & { clock: ManualClock; logs: Record<string, unknown>[] } {
  const logs: Record<string, unknown>[] = [];
  const log = createLogger('info', { write: (line: string) => logs.push(JSON.parse(line)) });
  const config = loadConfig({
    ADMIN_USER_IDS: ADMIN_ID,
    RUNTIME_CONFIG_TTL_MS: '0',
    POST_MIN_INTERVAL_MS: '0',
    ...env,
  });
  const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));
  const rng = parts.rng ?? cryptoRng;
  const ledger = new Ledger({
    cols: t.cols,
    clock,
    log,
    rng,
    config: config.ledger,
    ...(parts.hooks ? { hooks: parts.hooks } : {}),
  });
  const wallClock = parts.wallClock ?? systemClock;
  return { config, log, clock, wallClock, rng, db: t.db, cols: t.cols, ledger, logs };
}

/** Bot deps over a test database, with every log line kept in `logs` and posts in `transport`. */
export function makeBotDeps(
  t: Pick<TestDatabase, 'db' | 'cols'>,
  options: {
    assembly?: Assembly;
    env?: Record<string, string>;
    hooks?: LedgerHooks;
    rng?: Rng;
    wallClock?: Clock;
    /** Who gives roles (a test's own MemberRoles); none: every role change is refused. */
    roles?: MemberRoles;
  } = {},
): {
  deps: BotDeps;
  logs: Record<string, unknown>[];
  clock: ManualClock;
  transport: RecordingTransport;
} {
  const app = makeAppDeps(t, options.env, options);
  const transport = new RecordingTransport();
  const deps = createBotDeps(app, options.assembly ?? ASSEMBLY, {
    transport,
    ...(options.roles ? { roles: options.roles } : {}),
  });
  return { deps, logs: app.logs, clock: app.clock, transport };
}

let fundings = 0;

/** A funded vault and `each` Cookies for every member: what a heist or a game needs to start. */
export async function fundVaultAndMembers(
  deps: BotDeps,
  vault: number,
  members: readonly string[],
  each = 1_000,
): Promise<void> {
  fundings += 1;
  await deps.services.vault.fund({ opId: `fund-${fundings}`, adminId: 'admin', amount: vault, reason: '' });
  for (const member of members) {
    await deps.services.cookies.grant({
      opId: `g-${member}-${fundings}`,
      adminId: 'admin',
      to: member,
      amount: each,
      reason: '',
    });
  }
}

/** `points` Place points for every member, granted by a moderator (what a placement needs). */
export async function grantPlacePoints(
  deps: BotDeps,
  members: readonly string[],
  points: number,
): Promise<void> {
  for (const member of members) {
    await deps.services.place.grant({
      opId: `pts-${member}`,
      moderatorId: 'mod',
      to: member,
      amount: points * 1_000,
      reason: '',
    });
  }
}
