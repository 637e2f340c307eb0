import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from '../../commands/index.js';
import { ConsoleIdentities } from '../../src/console/consoleIdentities.js';
import { createConsoleOutput } from '../../src/console/consoleResponder.js';
import { ConsoleSession } from '../../src/console/consoleSession.js';
import type { Collections } from '../../src/db/collections.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import { makeBotDeps } from './botHarness.js';

/** A console session over a test database; `take()` returns what was printed since the last call. */
export function makeConsole(cols: Collections) {
  const identities = new ConsoleIdentities();
  const harness = makeBotDeps(cols);
  harness.deps.config.authority.adminUserIds.push(identities.get('admin').id);
  const outDir = mkdtempSync(join(tmpdir(), 'console-out-'));
  let printed = '';
  let session: ConsoleSession | null = null;
  const output = createConsoleOutput({
    outDir,
    clock: harness.clock,
    write: (text) => {
      printed += text;
    },
    nameOf: (id) => identities.nameOf(id),
    onMessage: (message) => session?.onMessage(message),
  });
  session = new ConsoleSession({
    runtime: new InteractionRuntime(harness.deps, COMMANDS),
    clock: harness.clock,
    identities,
    output,
  });
  return {
    session,
    identities,
    outDir,
    deps: harness.deps,
    take(): string {
      const text = printed;
      printed = '';
      return text;
    },
  };
}
