import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger } from '../../src/logger.js';
import type { PixelEventDoc } from '../../utils/place/placeStore.js';
import { CLOSE, LiveFeed } from '../../utils/web/liveFeed.js';
import { eventually } from '../support/webHarness.js';

/**
 * A changes feed that commits `total` placements at once when told to: enough bytes to fill
 * the kernel's socket buffers (about 4 MB on loopback) and then the feed's own limit, without
 * placing a hundred thousand pixels through the database.
 */
function burstFeed() {
  let committed = 0;
  let servedUpTo = 0;
  const event = (revision: number): PixelEventDoc => ({
    _id: revision,
    revision,
    kind: 'place',
    x: revision % 256,
    y: Math.floor(revision / 256) % 256,
    color: revision % 32,
    owner: '898000000000000001',
    cost: 100_000,
    at: new Date(1_796_000_000_000 + revision),
  });
  return {
    commit(total: number) {
      committed = total;
    },
    get servedUpTo() {
      return servedUpTo;
    },
    place: {
      advance: async () => committed,
      changesAfter: async (after: number, limit: number) => {
        const upTo = Math.min(committed, after + limit);
        const changes: PixelEventDoc[] = [];
        for (let r = after + 1; r <= upTo; r++) changes.push(event(r));
        servedUpTo = Math.max(servedUpTo, upTo);
        return { revision: upTo, changes };
      },
    },
  };
}

describe('the live feed and a client that reads too slowly', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const undo of cleanup.splice(0).reverse()) await undo();
  });

  it('GIVEN a client that stops reading THEN, once it reads again, it gets what was queued and then close 4008 with the reason', async () => {
    const source = burstFeed();
    const feed = new LiveFeed({
      place: source.place,
      names: async () => new Map(),
      log: createLogger('silent'),
      maxClients: 10,
      tickMs: 10,
      maxBufferedBytes: 256 * 1024,
    });
    const server = createServer();
    server.on('upgrade', (request, socket, head) => feed.accept(request, socket, head, null));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await feed.start();
    cleanup.push(async () => {
      await feed.stop();
      await new Promise((resolve) => server.close(resolve));
    });

    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/place/ws`);
    let received = 0;
    let lastRevision = 0;
    let ordered = true;
    client.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type !== 'changes') return;
      ordered &&= message.from === lastRevision;
      lastRevision = message.revision;
      received += message.changes.length;
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      client.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    await new Promise((resolve) => client.once('open', resolve));
    await eventually(() => feed.clients === 1);
    client.pause();

    // 120,000 placements, about 6.5 MB on the wire: past the kernel's buffers and the feed's limit.
    source.commit(120_000);
    await eventually(() => source.servedUpTo === 120_000, 30_000);
    await feed.tick();
    client.resume();

    expect(await closed).toEqual({
      code: CLOSE.tooSlow,
      reason: 'too slow: reconnect with your last revision',
    });
    // What it did get is a prefix of the feed, in order: reconnecting with `after` loses nothing.
    expect(ordered).toBe(true);
    expect(received).toBe(lastRevision);
    expect(lastRevision).toBeGreaterThan(0);
    expect(lastRevision).toBeLessThan(120_000);
  });
});
