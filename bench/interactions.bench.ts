/**
 * Interaction latency through the real discord.js client and the strict fake gateway: 50
 * members, each running 20 interactions one after another (balance, give and its Give button,
 * leaderboard), all members at once, then every other kind once each (help and its topic menu,
 * autocomplete, the canvas image, a form no feature handles, and the erase confirmation, which
 * waits on every process). Latency is measured from the gateway dispatch to the REST call that
 * carries the final reply (for the leaderboard: the edit with the PNG); the first callback
 * (a reply, a deferral or suggestions) is what Discord wants within 3 s.
 *
 * Prints where the time goes (the runtime's own log: the command's work, then sending the
 * reply; the rest is the gateway, discord.js and the event loop), the first callback of each
 * kind, then `interactions: p50_ms=<…> p99_ms=<…> image_p99_ms=<…> per_s=<…>` (p50/p99 over the
 * commands and buttons without images, image_p99 over the leaderboard) and the last line
 * `first_callback_p99_ms=<…> over_2s=<count>` over every interaction of every kind.
 * Uses the database selection of the bot (MONGODB_URI, else embedded), in memory.
 */

import { createBotDeps } from '../app/botDeps.js';
import { openApp } from '../app/openApp.js';
import { ASSEMBLY } from '../commands/index.js';
import { loadConfig } from '../src/config.js';
import { createDiscordClient, startDiscordBot } from '../src/discord/discordBot.js';
import { discordPostTransport } from '../src/discord/discordPostTransport.js';
import { InteractionRuntime } from '../src/interactions/runtime.js';
import { createLogger } from '../src/logger.js';
import { FakeDiscord, type FakeUser, type VisibleMessage } from '../test/support/fakeDiscord.js';

const MEMBERS = 50;
const STEPS = [
  'balance',
  'give',
  'click',
  'balance',
  'give',
  'click',
  'balance',
  'leaderboard',
  'balance',
  'balance',
];
const ROUNDS = 2; // 2 x 10 steps = 20 interactions per member
/** A member reads each reply before the next command: uniformly 0.5-1.5 x this (0: no pause, a stress test). */
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 500);

type Kind = 'plain' | 'image';
interface Sample {
  kind: Kind;
  ms: number;
}

/** How long each interaction waited for its first callback, by what it was. */
const firstCallbacks: { what: string; ms: number }[] = [];

function noteFirstCallback(what: string, token: string): void {
  const first = fake.callbackAt(token);
  if (first !== undefined)
    firstCallbacks.push({ what, ms: first - (fake.dispatchedAt.get(token) as number) });
}

const logs: Record<string, unknown>[] = [];
const log = createLogger('info', { write: (line: string) => logs.push(JSON.parse(line)) });
const config = loadConfig({ ...process.env, LOG_LEVEL: 'info' });
const app = await openApp(config, log, { persistent: false });
const fake = new FakeDiscord();
await fake.start();
const client = createDiscordClient({ apiUrl: fake.apiUrl });
const deps = createBotDeps(app, ASSEMBLY, { transport: discordPostTransport(client) });
const bot = await startDiscordBot(client, new InteractionRuntime(deps, ASSEMBLY), log, {
  token: 'bench-token',
});

const members: FakeUser[] = Array.from({ length: MEMBERS }, (_, i) => ({
  id: `7${String(i).padStart(17, '0')}`,
  username: `member${i}`,
}));

function pick(messages: VisibleMessage[], label: string): string {
  const button = messages
    .flatMap((m) => m.components.flatMap((row) => row.components))
    .find((c) => c.label === label);
  if (!button) throw new Error(`no ${label} button in ${JSON.stringify(messages.at(-1)?.content)}`);
  return button.custom_id;
}

/** Waits for the final reply of an interaction; returns it and its latency. */
async function settle(token: string, kind: Kind, samples: Sample[]): Promise<VisibleMessage[]> {
  const final =
    kind === 'image' ? (m: VisibleMessage) => m.via === 'edit' : (m: VisibleMessage) => m.via !== 'deferred';
  const messages = await fake.waitFor(token, (list) => list.some(final), 60_000);
  const reply = messages.find(final) as VisibleMessage;
  if (reply.content.startsWith('❌') || reply.content.startsWith('⚠️'))
    throw new Error(`refused: ${reply.content}`);
  samples.push({ kind, ms: reply.at - (fake.dispatchedAt.get(token) as number) });
  noteFirstCallback(
    kind === 'image' ? 'command with image' : messages[0]?.via === 'update' ? 'button' : 'command',
    token,
  );
  return messages;
}

async function runMember(index: number, samples: Sample[]): Promise<void> {
  const member = members[index] as FakeUser;
  const friend = members[(index + 1) % MEMBERS] as FakeUser;
  let prompt: VisibleMessage[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const step of STEPS) {
      if (THINK_MS > 0) await new Promise((resolve) => setTimeout(resolve, THINK_MS * (0.5 + Math.random())));
      if (step === 'balance') await settle(fake.command(member, 'cookies', ['balance']), 'plain', samples);
      if (step === 'leaderboard')
        await settle(fake.command(member, 'cookies', ['leaderboard']), 'image', samples);
      if (step === 'give') {
        const token = fake.command(member, 'cookies', ['give'], { user: friend.id, amount: 1 }, [friend]);
        prompt = await settle(token, 'plain', samples);
      }
      if (step === 'click') {
        const message = prompt.at(-1) as VisibleMessage;
        await settle(fake.click(member, message, pick(prompt, 'Give')), 'plain', samples);
      }
    }
  }
}

/** One interaction of a kind the main loop has not: its first callback noted, its answer awaited. */
async function once(
  what: string,
  token: string,
  final: (m: VisibleMessage) => boolean = (m) => m.via !== 'deferred',
) {
  const messages = await fake.waitFor(token, (list) => list.some(final), 60_000);
  noteFirstCallback(what, token);
  return messages;
}

/** Every other kind, once for a member: a menu, autocomplete, an image, a form, the erase confirmation. */
async function otherKinds(member: FakeUser): Promise<void> {
  const [help] = await once('command', fake.command(member, 'help', []));
  const menu = help?.components[0]?.components[0]?.custom_id as string;
  await once('select', fake.choose(member, help as VisibleMessage, menu, ['Cookies']));
  await once(
    'autocomplete',
    fake.autocomplete(member, 'place', ['pixel'], { x: '1', y: '1', color: 'bl' }, 'color'),
    (m) => m.via === 'suggestions',
  );
  await once('command with image', fake.command(member, 'place', ['view']), (m) => m.via === 'edit');
  await once('form', fake.submitModal(member, null, 'someone.form:1', { amount: '10' }));
  const [prompt] = await once('command', fake.command(member, 'privacy', ['forget']));
  await once(
    'erase confirmation',
    fake.click(member, prompt as VisibleMessage, pick([prompt as VisibleMessage], 'Erase my data')),
  );
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

try {
  // Members hold Cookies to give; the leaderboard's per-member wait is off for the run.
  await Promise.all(
    members.map((m, i) =>
      app.ledger.credit({
        opId: `bench-seed-${i}`,
        currency: 'cookies',
        account: m.id,
        amount: 10_000,
        kind: 'bench.seed',
      }),
    ),
  );
  await deps.runtimeConfig.set('cookies.leaderboard_cooldown_s', '0', 'bench');
  // Warm-up: one member's cycle, not measured (JIT, canvas fonts, first connections).
  await runMember(0, []);
  logs.length = 0;

  const samples: Sample[] = [];
  firstCallbacks.length = 0;
  const started = performance.now();
  await Promise.all(members.map((_, i) => runMember(i, samples)));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(members.map((m) => otherKinds(m)));

  const plain = samples.filter((s) => s.kind === 'plain').map((s) => s.ms);
  const image = samples.filter((s) => s.kind === 'image').map((s) => s.ms);
  const handled = logs.filter((l) => l.event === 'interaction.handled');
  const split = (filter: (l: Record<string, unknown>) => boolean, field: string) =>
    handled.filter(filter).map((l) => Number(l[field]));
  const isImage = (l: Record<string, unknown>) => l.command === '/cookies leaderboard';
  const fmt = (values: number[]) =>
    `p50 ${percentile(values, 50).toFixed(1)} / p99 ${percentile(values, 99).toFixed(1)} ms`;
  console.log(
    `${samples.length} interactions (${plain.length} without image, ${image.length} leaderboard images) by ${MEMBERS} members in ${seconds.toFixed(1)} s`,
  );
  console.log(
    `without image: end to end ${fmt(plain)}; the command's work ${fmt(split((l) => !isImage(l), 'runMs'))}; sending the reply ${fmt(split((l) => !isImage(l), 'replyMs'))}`,
  );
  console.log(
    `leaderboard:   end to end ${fmt(image)}; the command's work ${fmt(split(isImage, 'runMs'))}; sending the reply ${fmt(split(isImage, 'replyMs'))}`,
  );
  const what = (l: Record<string, unknown>) => String(l.command).replace(/:.*$/, '');
  for (const command of [...new Set(handled.map(what))].sort()) {
    const mine = handled.filter((l) => what(l) === command);
    console.log(
      `  ${command.padEnd(22)} work ${fmt(mine.map((l) => Number(l.runMs)))}; reply ${fmt(mine.map((l) => Number(l.replyMs)))}`,
    );
  }
  console.log('first callback (a reply, a deferral or suggestions), by kind:');
  for (const what of [...new Set(firstCallbacks.map((f) => f.what))].sort()) {
    const mine = firstCallbacks.filter((f) => f.what === what).map((f) => f.ms);
    console.log(`  ${what.padEnd(22)} ${mine.length} × ${fmt(mine)}, max ${Math.max(...mine).toFixed(1)} ms`);
  }
  console.log(
    `interactions: p50_ms=${percentile(plain, 50).toFixed(1)} p99_ms=${percentile(plain, 99).toFixed(1)} image_p99_ms=${percentile(image, 99).toFixed(1)} per_s=${(samples.length / seconds).toFixed(0)}`,
  );
  // The fake refuses what Discord refuses: a figure over refused requests would mean nothing.
  const refused = fake.refusals.filter((r) => !r.arranged);
  if (refused.length > 0)
    throw new Error(`Discord would have refused ${refused.length} requests: ${JSON.stringify(refused[0])}`);
  const all = firstCallbacks.map((f) => f.ms);
  console.log(
    `first_callback_p99_ms=${percentile(all, 99).toFixed(1)} over_2s=${all.filter((ms) => ms > 2_000).length}`,
  );
} finally {
  await bot.stop();
  await fake.stop();
  await app.close();
}
