/**
 * The bot through a database outage (`npm run test:outage`, and a short round in `npm test`):
 * the real bot process (app/main.ts) on the strict fake Discord, its MongoDB behind a proxy
 * the run takes down: connections refused, and every open one dropped mid-request. Members
 * keep using the bot and the web API meanwhile; then the database comes back.
 *
 * Reported: whether the process stayed up; how many interactions during the outage were
 * answered (a first callback within Discord's 3 s, and a final message); the web API's 503s
 * with Retry-After and /healthz saying the database is down; after the return, the holds left
 * open and whether the books check clean (`npm run check:invariants` on the database).
 */
import { MongoClient } from 'mongodb';
import { FakeDiscord, type FakeUser, type VisibleMessage } from './fakeDiscord.js';
import { FaultProxy } from './faultProxy.js';
import { type LoggingProcess, runNode, startNode } from './nodeProcess.js';
import { waitFor } from './waitFor.js';

/** The fewest interactions sent while the database is away, however slow the machine. */
const MIN_ASKED = 10;

export interface OutageOptions {
  /** The database server (its direct URI) and the database the run creates. */
  uri: string;
  dbName: string;
  /** How long the database is away. */
  downMs: number;
  /** The bot's web server port. */
  httpPort: number;
}

export interface OutageReport {
  downSeconds: number;
  processUp: boolean;
  /** Interactions sent while the database was away, and those answered in time and in full. */
  asked: number;
  answered: number;
  slowestFirstCallbackMs: number;
  slowestAnswerMs: number;
  /** What members read during the outage (distinct texts). */
  texts: string[];
  /** API requests during the outage, and those answered 503 with a Retry-After. */
  apiAsked: number;
  apiRefusedWithRetryAfter: number;
  healthSaidDown: boolean;
  /** Holds still open once every game the outage caught is over. */
  stuckHolds: number;
  books: 'clean' | string;
  /** Requests Discord would have refused (the strict fake). */
  refusals: number;
}

const ADMIN: FakeUser = { id: '870000000000000001', username: 'ada' };
const MEMBERS: FakeUser[] = Array.from({ length: 8 }, (_, i) => ({
  id: `8700000000000001${String(i).padStart(2, '0')}`,
  username: `member${i}`,
  ...(i % 2 === 1 ? { locale: 'de' } : {}),
}));

/** The final message of an interaction (not its deferral). */
const final = (messages: VisibleMessage[]) => messages.find((m) => m.via !== 'deferred');

export async function runOutage(options: OutageOptions): Promise<OutageReport> {
  const proxy = await FaultProxy.start(options.uri);
  const fake = new FakeDiscord();
  await fake.start();
  const direct = new MongoClient(options.uri);
  await direct.connect();
  let bot: LoggingProcess | null = null;
  try {
    // Blackjack hands run out on a 30-second timer: the outage catches hands in play.
    await direct
      .db(options.dbName)
      .collection<{ _id: string }>('runtime_config')
      .insertOne({
        _id: 'games.blackjack_timeout_s',
        value: 30,
        updatedBy: ADMIN.id,
        updatedAt: new Date(),
        revision: 1,
      } as never);
    bot = startNode(['app/main.ts'], {
      DISCORD_TOKEN: 'outage-token',
      DISCORD_API_URL: fake.apiUrl,
      MONGODB_URI: proxy.uri,
      MONGODB_DB_NAME: options.dbName,
      HTTP_PORT: String(options.httpPort),
      ADMIN_USER_IDS: ADMIN.id,
      LOG_LEVEL: 'info',
      SCHEDULER_POLL_MS: '250',
      SCHEDULER_LEASE_MS: '5000',
    });
    await bot.waitForLog('"event":"http.listening"');
    const api = `http://127.0.0.1:${options.httpPort}`;

    const ask = async (who: FakeUser, name: string, path: string[], values = {}, users: FakeUser[] = []) =>
      fake.waitFor(fake.command(who, name, path, values, users), (m) => final(m) !== undefined, 60_000);
    await ask(ADMIN, 'admin', ['vault', 'fund'], { amount: 1_000_000 });
    for (const m of MEMBERS)
      await ask(ADMIN, 'admin', ['cookies', 'grant'], { user: m.id, amount: 1_000 }, [m]);
    // Money in play when the database goes: a blackjack hand of each member.
    const hands: VisibleMessage[] = [];
    for (const m of MEMBERS)
      hands.push(final(await ask(m, 'games', ['blackjack'], { bet: 10 })) as VisibleMessage);

    proxy.goDown();
    const downAt = performance.now();
    const tokens: string[] = [];
    let apiAsked = 0;
    let apiRefusedWithRetryAfter = 0;
    let healthSaidDown = false;
    const actions: [string, string[], Record<string, string | number>][] = [
      ['cookies', ['balance'], {}],
      ['cookies', ['collect'], {}],
      ['games', ['coinflip'], { bet: 5, side: 'heads' }],
      ['place', ['me'], {}],
      ['hunt', ['status'], {}],
    ];
    // Down for downMs, and for at least MIN_ASKED interactions: on a busy machine one round of
    // asking can take seconds, and the round must still meet every kind of answer.
    for (let i = 0; i < MIN_ASKED || performance.now() - downAt < options.downMs; i++) {
      const member = MEMBERS[i % MEMBERS.length] as FakeUser;
      const [name, path, values] = actions[i % actions.length] as (typeof actions)[number];
      tokens.push(fake.command(member, name, path, values));
      const place = await fetch(`${api}/api/public/place`).catch(() => null);
      apiAsked += 1;
      if (place?.status === 503 && place.headers.get('retry-after')) apiRefusedWithRetryAfter += 1;
      const health = await fetch(`${api}/healthz`).then((r) => r.json() as Promise<{ database?: string }>);
      healthSaidDown ||= health.database === 'unreachable';
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const downSeconds = (performance.now() - downAt) / 1000;
    // Each interaction asked during the outage is answered, whatever the database does next.
    const answers = await Promise.all(
      tokens.map((token) =>
        fake.waitFor(token, (m) => final(m) !== undefined, 60_000).catch(() => fake.messages(token)),
      ),
    );
    await proxy.comeBack();

    let slowestFirstCallbackMs = 0;
    let slowestAnswerMs = 0;
    let answered = 0;
    const texts = new Set<string>();
    answers.forEach((messages, i) => {
      const sent = fake.dispatchedAt.get(tokens[i] as string) as number;
      const first = fake.callbackAt(tokens[i] as string);
      const last = final(messages);
      if (first !== undefined) slowestFirstCallbackMs = Math.max(slowestFirstCallbackMs, first - sent);
      if (last) slowestAnswerMs = Math.max(slowestAnswerMs, last.at - sent);
      if (first !== undefined && last && first - sent <= 3_000) answered += 1;
      if (last) texts.add(last.content || last.embeds[0]?.description || '');
    });

    // Back: the same members are served again, without a restart.
    await waitFor(
      async () => {
        const health = await fetch(`${api}/healthz`).then((r) => r.json() as Promise<{ database?: string }>);
        return health.database === 'ok';
      },
      { timeoutMs: 60_000, what: 'the bot to see its database again' },
    );
    const [balance] = await ask(MEMBERS[0] as FakeUser, 'cookies', ['balance']);
    if (!balance?.embeds[0]?.description?.includes('🍪'))
      throw new Error(`no balance after the outage: ${JSON.stringify(balance)}`);

    // The hands the outage caught are stood by their members (or were, by their timers, in a
    // long outage); then no money is left in play.
    for (const [i, hand] of hands.entries()) {
      const stand = hand.components
        .flatMap((row) => row.components)
        .find((c) => /Stand|Halten/.test(c.label ?? ''));
      if (stand)
        await fake.waitFor(
          fake.click(MEMBERS[i] as FakeUser, hand, stand.custom_id),
          (m) => final(m) !== undefined,
        );
    }
    const holds = direct.db(options.dbName).collection<{ state: string }>('holds');
    const open = { state: { $in: ['reserving', 'held', 'posting', 'voiding'] } };
    await waitFor(async () => (await holds.countDocuments(open)) === 0, {
      timeoutMs: 90_000,
      what: 'every hold to end',
    }).catch(() => undefined);
    const stuckHolds = await holds.countDocuments(open);

    const processUp = bot.child.exitCode === null && bot.child.signalCode === null;
    const stopped = await bot.terminate();
    bot = null;
    const check = await runNode(['app/checkInvariants.ts'], {
      env: { MONGODB_URI: options.uri, MONGODB_DB_NAME: options.dbName, LOG_LEVEL: 'warn' },
      killAfterMs: 120_000,
    });
    const books = check.code === 0 ? 'clean' : check.stdout.trim().split('\n').slice(-5).join(' | ');
    return {
      downSeconds,
      processUp: processUp && stopped === 0,
      asked: tokens.length,
      answered,
      slowestFirstCallbackMs,
      slowestAnswerMs,
      texts: [...texts],
      apiAsked,
      apiRefusedWithRetryAfter,
      healthSaidDown,
      stuckHolds,
      books,
      refusals: fake.refusals.filter((r) => !r.arranged).length,
    };
  } finally {
    await bot?.kill('SIGKILL');
    await direct.close();
    await fake.stop();
    await proxy.close();
  }
}

/** The line `npm run test:outage` ends with. */
export function outageLine(r: OutageReport): string {
  return `outage: down_s=${Math.round(r.downSeconds)} process_up=${r.processUp ? 'yes' : 'no'} answered=${r.answered}/${r.asked} stuck_holds=${r.stuckHolds} books=${r.books}`;
}
