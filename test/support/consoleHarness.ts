import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBotDeps } from '../../app/botDeps.js';
import { ASSEMBLY } from '../../commands/index.js';
import { ConsoleIdentities } from '../../src/console/consoleIdentities.js';
import { consolePostTransport, createConsoleOutput } from '../../src/console/consoleResponder.js';
import { ConsoleRoles } from '../../src/console/consoleRoles.js';
import { ConsoleSession } from '../../src/console/consoleSession.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import { makeAppDeps } from './botHarness.js';
import type { TestDatabase } from './database.js';

/** A console session over a test database; `take()` returns what was printed since the last call. */
export function makeConsole(t: Pick<TestDatabase, 'db' | 'cols'>) {
  const identities = new ConsoleIdentities();
  const app = makeAppDeps(t);
  app.config.authority.adminUserIds.push(identities.get('admin').id);
  const outDir = mkdtempSync(join(tmpdir(), 'console-out-'));
  let printed = '';
  let session: ConsoleSession | null = null;
  const roles = new ConsoleRoles((change) => session?.onRoleChange(change));
  const output = createConsoleOutput({
    outDir,
    clock: app.clock,
    write: (text) => {
      printed += text;
    },
    nameOf: (id) => identities.nameOf(id),
    channelNameOf: (id) => identities.channelNameOf(id),
    roleNameOf: (id) => identities.roleNameOf(id),
    locale: () => session?.locale ?? 'en',
    onMessage: (message) => session?.onMessage(message),
  });
  const deps = createBotDeps(app, ASSEMBLY, { transport: consolePostTransport(output), roles });
  session = new ConsoleSession({
    runtime: new InteractionRuntime(deps, ASSEMBLY),
    clock: app.clock,
    identities,
    roles,
    output,
    scheduler: deps.scheduler,
  });
  return {
    session,
    identities,
    roles,
    outDir,
    deps,
    clock: app.clock,
    take(): string {
      const text = printed;
      printed = '';
      return text;
    },
  };
}
