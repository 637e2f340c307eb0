/**
 * The places where a feature lets the features built above it act inside its own flows: the
 * cookies feature asks, before a steal's roll, whether something protects the victim (a padlock
 * from the shop). Each feature declares its hooks by declaration merging:
 *
 *   declare module '../../src/features/hooks.js' {
 *     interface FeatureHooks { 'cookies.steal_guard': StealGuard }
 *   }
 *
 * A feature adds its hook when its services are built (`infra.featureHooks.add`); the flow reads them
 * when it runs, so the registry's order does not matter.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, feature by feature
export interface FeatureHooks {}

export class Hooks {
  readonly #hooks = new Map<keyof FeatureHooks, unknown[]>();

  add<K extends keyof FeatureHooks>(name: K, hook: FeatureHooks[K]): void {
    const list = this.#hooks.get(name) ?? [];
    list.push(hook);
    this.#hooks.set(name, list);
  }

  of<K extends keyof FeatureHooks>(name: K): readonly FeatureHooks[K][] {
    return (this.#hooks.get(name) ?? []) as FeatureHooks[K][];
  }
}
