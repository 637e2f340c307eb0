import { gzipSync } from 'node:zlib';
import { BSON, type Document } from 'mongodb';
import type { Clock } from '../../src/clock.js';
import type { FeatureServices, PersonalCollection, PersonalDataCatalog } from '../../src/features/feature.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { CookieEconomy } from '../money/cookieEconomy.js';
import { LEDGER_COLLECTION_NAMES } from '../money/ledger/documents.js';
import type { PlaceEconomy } from '../money/placeEconomy.js';
import type { PersonalDataStore } from './personalDataStore.js';

/** The catalog's name of a collection (`privacy:collections.<name>`): the books by what they hold. */
const CATALOG_NAMES: Readonly<Record<string, string>> = {
  [LEDGER_COLLECTION_NAMES.cookies]: 'cookieBalances',
  [LEDGER_COLLECTION_NAMES.placeWallets]: 'placeWallets',
};

/**
 * What may not leave the bot, even to the member it is about, as each feature declares it
 * (`hidden`): a secret that would let whoever holds the file act as them (a worker's signing
 * key; a sign-in link's or session's token hash, which stands for the token), or decide a game
 * (the server seed not revealed yet: it would show the outcome of the next rounds before they
 * are played). Each is replaced by a line saying so.
 */
function shown(hidden: PersonalCollection['hidden'], doc: Document, i18n: Translator): Document {
  const shownDoc = { ...doc };
  for (const [field, what] of Object.entries(hidden ?? {})) {
    if (doc[field] !== undefined) shownDoc[field] = `[${i18n.t(`privacy:export.hidden.${what}`)}]`;
  }
  return shownDoc;
}

/** Discord takes files of 10 MiB from a bot in any server; a larger export goes compressed. */
const PLAIN_LIMIT = 8 * 1024 * 1024;

export interface ExportDeps {
  data: PersonalDataStore;
  cookies: CookieEconomy;
  place: PlaceEconomy;
  clock: Clock;
  personalData: PersonalDataCatalog;
}

export interface PersonalExport {
  name: string;
  data: Buffer;
  documents: number;
}

/**
 * Everything the bot keeps about a member, as one JSON file they can read (docs/operating.md,
 * "Privacy"): what it is, in their language, a summary (balances, workers), then every
 * document that names them or one of their workers, collection by collection, each collection
 * with a line saying what it is for. Dates and numbers as JSON writes them.
 */
export async function exportPersonalData(
  deps: ExportDeps,
  services: FeatureServices,
  member: string,
  i18n: Translator,
): Promise<PersonalExport> {
  const workers = await deps.personalData.aliases(services, member);
  const found = await deps.data.gather([member, ...workers]);
  const [cookies, wallet] = await Promise.all([deps.cookies.balance(member), deps.place.wallet(member)]);
  let documents = 0;
  const collections: Record<string, { what: string; documents: unknown[] }> = {};
  for (const [collection, docs] of found) {
    documents += docs.length;
    const declared = deps.personalData.collections.get(collection);
    const key = declared?.what ?? `privacy:collections.${CATALOG_NAMES[collection] ?? collection}`;
    const what = i18n.t(key);
    collections[collection] = {
      what:
        what === key.slice(key.indexOf(':') + 1) || what === key ? i18n.t('privacy:collections.other') : what,
      documents: docs.map((d) => BSON.EJSON.serialize(shown(declared?.hidden, d, i18n), { relaxed: true })),
    };
  }
  const body = {
    about: i18n.t('privacy:export.about'),
    member,
    exportedAt: deps.clock.now().toISOString(),
    summary: {
      cookies,
      placePoints: (wallet?.balance ?? 0) / 1000,
      pixelsPainted: wallet?.placements ?? 0,
      workers,
      documents,
    },
    collections,
  };
  const json = Buffer.from(`${JSON.stringify(body, null, 2)}\n`);
  return json.length <= PLAIN_LIMIT
    ? { name: `cookiebot-data-${member}.json`, data: json, documents }
    : { name: `cookiebot-data-${member}.json.gz`, data: gzipSync(json), documents };
}
