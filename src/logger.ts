import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Fields that may hold a secret or a network address, wherever they sit in a log line: their
 * value is written as "[redacted]" (pino's redaction; docs/operating.md, "Privacy").
 */
const REDACTED_FIELDS = [
  'token',
  'secret',
  'password',
  'authorization',
  'cookie',
  'ip',
  'remoteAddress',
  '*.token',
  '*.secret',
  '*.password',
  '*.authorization',
  '*.cookie',
  '*.ip',
  '*.remoteAddress',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["x-signature"]',
];

/** What a Discord bot token looks like (three dot-separated base64url parts). */
const DISCORD_TOKEN = /[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}/g;

export interface LoggerOptions {
  /** Values never to be written, wherever they appear (DISCORD_TOKEN, DISCORD_CLIENT_SECRET). */
  secrets?: readonly (string | undefined | null)[];
}

/**
 * Structured logger. Event names are stable strings in the `event` field
 * (e.g. `ledger.compensation.failed`) so alerts can match on them. Secrets never reach it:
 * fields named for them are redacted, and the configured secrets and anything shaped like a
 * Discord token are cut out of every string, error messages and stacks included (a library's
 * error may quote the request it failed).
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  options: LoggerOptions = {},
): Logger {
  const scrub = scrubber(options.secrets ?? []);
  return pino(
    {
      level,
      base: { app: 'cookie-place-bot' },
      redact: { paths: REDACTED_FIELDS, censor: '[redacted]' },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((arg) => scrub(arg)) as Parameters<typeof method>);
        },
      },
    },
    destination ?? pino.destination(2),
  );
}

function scrubber(secrets: readonly (string | undefined | null)[]): (value: unknown) => unknown {
  const known = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  const text = (value: string) => {
    let out = value.replace(DISCORD_TOKEN, '[redacted]');
    for (const secret of known) out = out.split(secret).join('[redacted]');
    return out;
  };
  const visit = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return text(value);
    if (depth > 6 || typeof value !== 'object' || value === null) return value;
    if (value instanceof Error) return visit({ ...pino.stdSerializers.err(value) }, depth + 1);
    if (Array.isArray(value)) return value.map((v) => visit(v, depth + 1));
    if (Object.getPrototypeOf(value) !== Object.prototype) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v, depth + 1)]));
  };
  return (value) => visit(value, 0);
}

export const silentLogger: Logger = pino({ level: 'silent' });
