/**
 * Waits until `check` holds, polling every `intervalMs`; fails after `timeoutMs` with `what`.
 * The one way a test waits for something another process, timer or connection does: never a
 * fixed pause that hopes the thing has happened by then (a busy machine takes longer).
 * Resolves with the first truthy value `check` returned.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string | (() => string) } = {},
): Promise<NonNullable<T>> {
  const { timeoutMs = 30_000, intervalMs = 50, what = 'a condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Resolves with `promise`, or fails naming `what` after `ms` (a paused step that never came). */
export function within<T>(promise: Promise<T>, what: string, ms = 20_000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms).unref(),
    ),
  ]);
}
