/**
 * The services features offer to commands and to each other, by feature name. Each feature
 * merges its own entry from `utils/<feature>/`:
 *
 *   declare module '../../src/features/services.js' {
 *     interface FeatureServices { cookies: CookieService }
 *   }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, feature by feature
export interface FeatureServices {}
