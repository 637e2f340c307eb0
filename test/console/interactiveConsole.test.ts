import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT_MS, runNode, startNode } from '../support/nodeProcess.js';

const OWNER = '899000000000000001';
const WORKER = { _id: 'w-console-test', secret: 'console-test-secret-0123456789' };

/**
 * `npm start` without a token, at its prompt (standard input a pipe, as a terminal would be),
 * with a real worker process hunting against its HTTP server.
 */
describe('the interactive console', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const dbName = `interactive_console_${Date.now()}`;
  const client = new MongoClient(inject('mongoUri'));
  afterAll(async () => {
    await client.db(dbName).dropDatabase();
    await client.close();
  });

  it('GIVEN its clock moved two minutes ahead by !wait THEN a worker signing with real time still hunts, and the clock keeps running between lines', async () => {
    await client.connect();
    await client
      .db(dbName)
      .collection('identity_delegations')
      .insertOne({
        ...WORKER,
        ownerId: OWNER,
        label: 'cli',
        createdAt: new Date(),
        unlinkedAt: null,
      } as never);
    const port = 22_000 + (process.pid % 2_000);
    const prompt = startNode(
      ['app/main.ts'],
      {
        DISCORD_TOKEN: '',
        MONGODB_URI: inject('mongoUri'),
        MONGODB_DB_NAME: dbName,
        HTTP_PORT: String(port),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'console-data-')),
      },
      { watch: 'stdout', stdin: true },
    );
    try {
      await prompt.waitForLog(/The live canvas: (http:\/\/\S+)\/place/);
      const [portal] = await prompt.waitForLog(/The moderators' portal: (http:\/\/\S+)\/admin /);
      expect(portal).toContain(`http://127.0.0.1:${port}/admin`);
      const clockAfter = async (line: string, count: number) => {
        prompt.child.stdin?.write(`${line}\n`);
        const all = [
          ...(await prompt.waitForLog(new RegExp(`(?:clock is now (\\S+?)[;)][^]*){${count}}`)))[0].matchAll(
            /clock is now (\S+?)[;)]/g,
          ),
        ];
        return new Date(all[count - 1]?.[1] as string).getTime();
      };

      const ahead = await clockAfter('!wait 2m', 1);
      expect(ahead - Date.now()).toBeGreaterThan(110_000);
      const { code, stdout } = await runNode([
        'app/worker.ts',
        '--url',
        `http://127.0.0.1:${port}`,
        '--id',
        WORKER._id,
        '--secret',
        WORKER.secret,
        '--tips',
        '1',
        '--poll-ms',
        '50',
      ]);
      expect(stdout).toContain('worker: 1 tips sent');
      expect(code).toBe(0);

      // At least a second later (the worker's run), one more second of !wait: the clock moved by both.
      // Deliberate: the second of real time that passes here is what the clock must keep counting.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const later = await clockAfter('!wait 1s', 2);
      expect(later - ahead).toBeGreaterThanOrEqual(2_000);
    } finally {
      prompt.child.stdin?.end('!quit\n');
      await prompt.exited();
    }
  });
});
