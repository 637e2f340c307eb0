import { z } from 'zod';
import { type Locale, resolveLocale } from './i18n/i18n.js';
import { SNOWFLAKE_PATTERN } from './snowflake.js';

const idList = z
  .string()
  .default('')
  .transform((raw) =>
    raw
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  )
  .pipe(
    z.array(z.string().regex(SNOWFLAKE_PATTERN, 'each entry must be a Discord snowflake (15-21 digits)')),
  );

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const envSchema = z.object({
  DISCORD_TOKEN: optionalText,
  DISCORD_APPLICATION_ID: optionalText.pipe(z.string().regex(SNOWFLAKE_PATTERN).optional()),
  DEV_GUILD_ID: optionalText.pipe(z.string().regex(SNOWFLAKE_PATTERN).optional()),
  DISCORD_API_URL: optionalText.pipe(z.url().optional()),
  MONGODB_URI: optionalText.pipe(
    z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb://')
      .optional(),
  ),
  MONGODB_DB_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,60}$/, 'letters, digits, _ and - only')
    .default('cookiebot'),
  EMBEDDED_DB: z.enum(['auto', 'mongod', 'java']).default('auto'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOUSE_ACCOUNT_ID: z.string().min(1).max(64).default('house'),
  HOUSE_MIN_RESERVE_COOKIES: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  LEDGER_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(5_000),
  LEDGER_ATTEMPT_DEADLINE_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  LEDGER_RECOVERY_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  LEDGER_RECOVERY_INTERVAL_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(15_000),
  LEDGER_FENCE_RETENTION_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(30 * 86_400_000)
    .default(86_400_000),
  ADMIN_USER_IDS: idList,
  ADMIN_ROLE_IDS: idList,
  MODERATOR_USER_IDS: idList,
  MODERATOR_ROLE_IDS: idList,
  RUNTIME_CONFIG_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  SCHEDULER_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(1_000),
  SCHEDULER_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  SCHEDULER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  POST_MIN_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(1_500),
  HTTP_PORT: z.coerce.number().int().min(0).max(65_535).default(8787),
  HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/ })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
  ),
  DISCORD_CLIENT_SECRET: optionalText,
  WS_MAX_PLACE_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1_500),
  WEB_WRITES_PER_MEMBER_PER_MIN: z.coerce.number().int().min(1).max(1_000_000).default(120),
  WEB_WRITES_PER_IP_PER_MIN: z.coerce.number().int().min(1).max(1_000_000).default(600),
  WS_HANDSHAKES_PER_IP_PER_MIN: z.coerce.number().int().min(1).max(1_000_000).default(120),
  DEFAULT_PLACE_ENABLED: z.enum(['0', '1']).default('1'),
  DEFAULT_PLACE_WIDTH: z.coerce.number().int().min(1).max(2_048).default(256),
  DEFAULT_PLACE_HEIGHT: z.coerce.number().int().min(1).max(2_048).default(256),
  DEFAULT_PLACE_PIXEL_COST: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Where the bot writes its own backups; unset: none (the console's persistent mode: DATA_DIR/backups). */
  BACKUP_DIR: optionalText,
  BACKUP_INTERVAL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1_000).default(14),
  /** How many days of the console's log files are kept (a file a day); the bot's stdout is the operator's to keep. */
  LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  /** The console's language comes from the usual locale variable (`de_DE.UTF-8` → German). */
  LANG: z.string().optional(),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  discord: {
    token: string | undefined;
    applicationId: string | undefined;
    devGuildId: string | undefined;
    apiUrl: string | undefined;
  };
  mongo: {
    uri: string | undefined;
    dbName: string;
    embedded: 'auto' | 'mongod' | 'java';
    dataDir: string;
  };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  ledger: {
    houseAccountId: string;
    houseMinReserve: number;
    requestTimeoutMs: number;
    attemptDeadlineMs: number;
    recoveryGraceMs: number;
    recoveryIntervalMs: number;
    fenceRetentionMs: number;
  };
  authority: {
    adminUserIds: string[];
    adminRoleIds: string[];
    moderatorUserIds: string[];
    moderatorRoleIds: string[];
  };
  runtimeConfigTtlMs: number;
  scheduler: { pollMs: number; leaseMs: number; concurrency: number };
  postMinIntervalMs: number;
  /**
   * The canvas's defaults (`DEFAULT_PLACE_*`): its size when first created, and the
   * defaults of the runtime settings `place_enabled` and `place_pixel_cost` (in points).
   */
  place: { enabled: boolean; width: number; height: number; pixelCost: number };
  /**
   * The HTTP server (the canvas page, its API and WebSocket, the workers' API, /metrics):
   * off when the port is 0; loopback unless HTTP_HOST says otherwise. `publicUrl` is how
   * browsers reach it (sign-in links; the origin writes must come from).
   */
  http: {
    port: number;
    host: string;
    publicUrl: string | null;
    discordClientSecret: string | null;
    wsMaxConnections: number;
    writesPerMemberPerMin: number;
    writesPerIpPerMin: number;
    wsHandshakesPerIpPerMin: number;
  };
  /** The local console's starting language (`!locale` changes it). */
  consoleLocale: Locale;
  /**
   * The bot's own backups (docs/operating.md, "Backups"): into `dir` every `intervalHours`, the
   * `keep` newest kept. `dir` null: none are taken on a timer (`npm run backup` still works).
   */
  backup: { dir: string | null; intervalHours: number; keep: number };
  /** Days of logs kept (docs/operating.md, "Privacy"). */
  logRetentionDays: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses every environment variable the bot reads, once, into a typed object. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  return {
    discord: {
      token: e.DISCORD_TOKEN,
      applicationId: e.DISCORD_APPLICATION_ID,
      devGuildId: e.DEV_GUILD_ID,
      apiUrl: e.DISCORD_API_URL,
    },
    mongo: { uri: e.MONGODB_URI, dbName: e.MONGODB_DB_NAME, embedded: e.EMBEDDED_DB, dataDir: e.DATA_DIR },
    logLevel: e.LOG_LEVEL,
    ledger: {
      houseAccountId: e.HOUSE_ACCOUNT_ID,
      houseMinReserve: e.HOUSE_MIN_RESERVE_COOKIES,
      requestTimeoutMs: e.LEDGER_REQUEST_TIMEOUT_MS,
      attemptDeadlineMs: e.LEDGER_ATTEMPT_DEADLINE_MS,
      recoveryGraceMs: e.LEDGER_RECOVERY_GRACE_MS,
      recoveryIntervalMs: e.LEDGER_RECOVERY_INTERVAL_MS,
      fenceRetentionMs: e.LEDGER_FENCE_RETENTION_MS,
    },
    authority: {
      adminUserIds: e.ADMIN_USER_IDS,
      adminRoleIds: e.ADMIN_ROLE_IDS,
      moderatorUserIds: e.MODERATOR_USER_IDS,
      moderatorRoleIds: e.MODERATOR_ROLE_IDS,
    },
    runtimeConfigTtlMs: e.RUNTIME_CONFIG_TTL_MS,
    scheduler: {
      pollMs: e.SCHEDULER_POLL_MS,
      leaseMs: e.SCHEDULER_LEASE_MS,
      concurrency: e.SCHEDULER_CONCURRENCY,
    },
    postMinIntervalMs: e.POST_MIN_INTERVAL_MS,
    http: {
      port: e.HTTP_PORT,
      host: e.HTTP_HOST,
      publicUrl: e.PUBLIC_URL ?? null,
      discordClientSecret: e.DISCORD_CLIENT_SECRET ?? null,
      wsMaxConnections: e.WS_MAX_PLACE_CONNECTIONS,
      writesPerMemberPerMin: e.WEB_WRITES_PER_MEMBER_PER_MIN,
      writesPerIpPerMin: e.WEB_WRITES_PER_IP_PER_MIN,
      wsHandshakesPerIpPerMin: e.WS_HANDSHAKES_PER_IP_PER_MIN,
    },
    place: {
      enabled: e.DEFAULT_PLACE_ENABLED === '1',
      width: e.DEFAULT_PLACE_WIDTH,
      height: e.DEFAULT_PLACE_HEIGHT,
      pixelCost: e.DEFAULT_PLACE_PIXEL_COST,
    },
    consoleLocale: resolveLocale(e.LANG),
    backup: { dir: e.BACKUP_DIR ?? null, intervalHours: e.BACKUP_INTERVAL_HOURS, keep: e.BACKUP_KEEP },
    logRetentionDays: e.LOG_RETENTION_DAYS,
  };
}
