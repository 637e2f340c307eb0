import type { Clock } from '../../src/clock.js';
import type { FeatureServices, PersonalDataCatalog } from '../../src/features/feature.js';
import type { Locale, Translator } from '../../src/i18n/i18n.js';
import type { TaskHandler } from '../../src/scheduler/scheduler.js';
import type { CookieEconomy } from '../money/cookieEconomy.js';
import type { PlaceEconomy } from '../money/placeEconomy.js';
import type { Erasures } from './erasure.js';
import type { ErasureDoc } from './erasureStore.js';
import type { InPlay } from './errors.js';
import type { Freeze } from './freeze.js';
import type { PersonalDataStore } from './personalDataStore.js';
import { exportPersonalData, type PersonalExport } from './personalExport.js';
import type { Retention } from './retention.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    privacy: PrivacyService;
  }
}

/** How long each kind of record lives, for `/privacy info` (docs/operating.md, "Privacy"). */
export interface RetentionFacts {
  sessionDays: number;
  backups: number;
  backupDays: number;
  logDays: number;
}

/**
 * A member's rights over their data (docs/operating.md, "Privacy"): what is kept and for how long,
 * a copy of it, and forgetting them. The other features it asks (poker seats, workers, the
 * audit) come with each call, from the deps the caller holds.
 */
export class PrivacyService {
  constructor(
    private readonly deps: {
      erasures: Erasures;
      freeze: Freeze;
      retention: Retention;
      data: PersonalDataStore;
      cookies: CookieEconomy;
      place: PlaceEconomy;
      clock: Clock;
      facts: RetentionFacts;
      personalData: PersonalDataCatalog;
    },
  ) {}

  /** Refuses a member (or worker) whose data is being erased: PRIVACY_ERASING. */
  refuseErasing(id: string): Promise<void> {
    return this.deps.freeze.refuse(id);
  }

  facts(): RetentionFacts {
    return this.deps.facts;
  }

  /** What forgetting would forfeit: the member's Cookies and Place points (milli-points). */
  async holdings(member: string): Promise<{ cookies: number; points: number }> {
    const [cookies, points] = await Promise.all([
      this.deps.cookies.balance(member),
      this.deps.place.balance(member),
    ]);
    return { cookies, points };
  }

  inPlay(services: FeatureServices, member: string): Promise<InPlay> {
    return this.deps.erasures.inPlay(services, member);
  }

  exportFor(services: FeatureServices, member: string, i18n: Translator): Promise<PersonalExport> {
    return exportPersonalData(this.deps, services, member, i18n);
  }

  /**
   * Forgets a member: records the request (PRIVACY_IN_PLAY while anything is in play), then
   * runs it to its end here; its durable task finishes it if this process stops on the way.
   */
  async forget(
    services: FeatureServices,
    member: string,
    requestedBy: string,
    locale: Locale,
  ): Promise<ErasureDoc> {
    const erasure = await this.deps.erasures.request(services, member, requestedBy, locale);
    return (await this.deps.erasures.run(services, erasure._id)) ?? erasure;
  }

  /** Plans the prune of expired records (a process that runs timers, at its start). */
  planPrune(): Promise<void> {
    return this.deps.retention.plan();
  }

  tasks(services: FeatureServices): TaskHandler[] {
    return [...this.deps.erasures.tasks(services), ...this.deps.retention.tasks(services)];
  }
}
