import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBotDeps } from '../../app/botDeps.js';
import { ASSEMBLY } from '../../commands/index.js';
import { ConsoleIdentities } from '../../src/console/consoleIdentities.js';
import { consolePostTransport, createConsoleOutput } from '../../src/console/consoleResponder.js';
import { ConsoleRoles } from '../../src/console/consoleRoles.js';
import { ConsoleSession } from '../../src/console/consoleSession.js';
import { fileAttachmentReader } from '../../src/discord/attachmentReader.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import type { CommandModule } from '../../src/interactions/types.js';
import { makeAppDeps } from './botHarness.js';
import type { TestDatabase } from './database.js';

/**
 * A console session over a test database, with the registry's commands plus `extraCommands`;
 * `take()` returns what was printed since the last call.
 */
export function makeConsole(
  t: Pick<TestDatabase, 'db' | 'cols'>,
  options: { extraCommands?: CommandModule[] } = {},
) {
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
  const deps = createBotDeps(app, ASSEMBLY, {
    transport: consolePostTransport(output),
    roles,
    attachments: fileAttachmentReader,
  });
  session = new ConsoleSession({
    runtime: new InteractionRuntime(deps, {
      commands: [...ASSEMBLY.commands, ...(options.extraCommands ?? [])],
      errorMessages: ASSEMBLY.errorMessages,
      refuseActor: (deps, actorId, scope) => ASSEMBLY.refuseActor(deps, actorId, scope),
    }),
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
