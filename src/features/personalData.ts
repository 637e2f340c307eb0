import type { Feature, PersonalCollection, PersonalDataCatalog } from './feature.js';

/**
 * Combines what each feature declares it keeps about a member: a collection is declared by
 * one feature only (a second is a mistake, refused at start-up).
 */
export function combinePersonalData(features: readonly Feature[]): PersonalDataCatalog {
  const collections = new Map<string, PersonalCollection>();
  for (const feature of features) {
    for (const [name, collection] of Object.entries(feature.personalData?.collections ?? {})) {
      if (collections.has(name)) throw new Error(`personal data of collection ${name} is declared twice`);
      collections.set(name, collection);
    }
  }
  const declaring = features.flatMap((f) => (f.personalData ? [f.personalData] : []));
  return {
    collections,
    async aliases(services, member) {
      const found: string[] = [];
      for (const data of declaring) found.push(...((await data.aliases?.(services, member)) ?? []));
      return found;
    },
    async inPlay(services, member, aliases) {
      const found = await Promise.all(
        declaring.map(async (data) => (await data.inPlay?.(services, member, aliases)) ?? {}),
      );
      const total: Record<string, number> = {};
      for (const [kind, count] of found.flatMap((counts) => Object.entries(counts))) {
        if (count > 0) total[kind] = (total[kind] ?? 0) + count;
      }
      return total;
    },
  };
}
