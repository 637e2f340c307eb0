/**
 * Part of `npm run bench:ws`: one process holding many WebSocket clients of the live canvas.
 * Each client notes when every batch of placements arrives (epoch ms, sub-millisecond): a batch
 * holds the revisions after `from` up to `revision`. On SIGTERM the process writes
 * `[from, revision, arrival]` triples of all its clients to the file it was given. It reads
 * only those two numbers from the head of each message (the server writes them first), so the
 * harness spends little of the machine's CPU, which the server under test shares.
 */
import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';

const [url, countText, out] = process.argv.slice(2) as [string, string, string];
const count = Number(countText);
const arrivals: number[] = [];
const now = () => performance.timeOrigin + performance.now();
let open = 0;
const sockets: WebSocket[] = [];
for (let i = 0; i < count; i++) {
  const ws = new WebSocket(url);
  ws.on('open', () => {
    open++;
    if (open === count) process.stdout.write('ready\n');
  });
  ws.on('message', (data: Buffer) => {
    const at = now();
    const head = /^\{"type":"changes","from":(\d+),"revision":(\d+)/.exec(data.toString('latin1', 0, 80));
    if (head) arrivals.push(Number(head[1]), Number(head[2]), at);
  });
  ws.on('close', (code, reason) => {
    if (code !== 1000 && code !== 1001) process.stderr.write(`closed ${code} ${reason}\n`);
  });
  sockets.push(ws);
  // Connect in steps, as browsers would arrive, not all in one instant.
  if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 20));
}
process.on('SIGTERM', () => {
  writeFileSync(out, Buffer.from(new Float64Array(arrivals).buffer));
  for (const ws of sockets) ws.terminate();
  process.exit(0);
});
