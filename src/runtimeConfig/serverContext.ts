import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<string>();

/**
 * Runs `work` as acting in one Discord server: the runtime settings it reads take that server's
 * layer (`RuntimeConfig.get`), whatever service reads them, however deep. The interaction
 * runtime runs every command and button in the server it came from; a timer that acts for a
 * server (a heist's end, a post) runs in the server its payload names. Outside (a DM, the web,
 * a global timer) the defaults hold.
 */
export function inServer<T>(guildId: string | null | undefined, work: () => T): T {
  return guildId ? current.run(guildId, work) : work();
}

/** The server the code runs for, or null (a DM, the web, a global timer). */
export function currentServer(): string | null {
  return current.getStore() ?? null;
}
