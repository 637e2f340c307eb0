/**
 * Makes a test fail when the bot made a request Discord would have refused. Registered by each
 * FakeDiscord for the suite that creates it, when it runs under vitest (the benchmark uses the
 * fake outside any test): after each test, and once more after the suite's own teardown, which
 * stops the bot, so a refusal on the way out counts too.
 */
const vitest = process.env.VITEST ? await import('vitest') : undefined;

export function guardRefusals(check: () => void): void {
  if (!vitest) return;
  try {
    vitest.afterEach(check);
    // Hooks after a suite run last-registered first: this one runs after the suite's own.
    vitest.afterAll(check);
  } catch {
    // Created inside a test or hook: no suite to attach to; `checkRefusals()` stays available.
  }
}
