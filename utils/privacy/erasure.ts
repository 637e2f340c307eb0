import type { Document } from 'mongodb';
import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { COLLECTION_NAMES } from '../../src/db/collections.js';
import type { FeatureServices, PersonalDataCatalog } from '../../src/features/feature.js';
import type { I18n, Locale } from '../../src/i18n/i18n.js';
import type { Logger } from '../../src/logger.js';
import { newPseudonym } from '../../src/privacy/pseudonym.js';
import type { ProfileDirectory } from '../../src/profiles/profileDirectory.js';
import type { ServerMembers } from '../../src/profiles/serverMembers.js';
import type { Rng } from '../../src/rng.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { CookieEconomy } from '../money/cookieEconomy.js';
import { HOLDS } from '../money/holds/holdStore.js';
import type { Holds } from '../money/holds/holds.js';
import { LEDGER_COLLECTION_NAMES } from '../money/ledger/documents.js';
import type { Ledger } from '../money/ledger/ledger.js';
import type { PlaceEconomy } from '../money/placeEconomy.js';
import type { ErasureDoc, ErasureStore } from './erasureStore.js';
import { type InPlay, privacyInPlay } from './errors.js';
import { FREEZE_REFRESH_MS, type Freeze } from './freeze.js';
import type { PersonalDataStore } from './personalDataStore.js';

export interface ErasureDeps {
  erasures: ErasureStore;
  freeze: Freeze;
  data: PersonalDataStore;
  cookies: CookieEconomy;
  place: PlaceEconomy;
  holds: Holds;
  ledger: Ledger;
  profiles: ProfileDirectory;
  serverMembers: ServerMembers;
  scheduler: Scheduler;
  clock: Clock;
  rng: Rng;
  log: Logger;
  i18n: I18n;
  /** What each feature declared it keeps about a member, what it deletes, and what may be in play. */
  personalData: PersonalDataCatalog;
}

export const ERASE_TASK = 'privacy.erase';
const LEASE_MS = 5 * 60_000;
/** How long an erasure waits for what the member had in play when it began to end. */
const QUIET_WITHIN_MS = 60_000;
/** Passes over every collection at most: the second finds what actions begun before the freeze wrote. */
const MAX_PASSES = 3;

/**
 * The kernel's collections that only concern the member: deleted, not kept under the pseudonym.
 * Each feature declares its own (`personalData`, `forget: 'delete'`).
 */
const KERNEL_DELETED: ReadonlySet<string> = new Set([
  COLLECTION_NAMES.profiles,
  COLLECTION_NAMES.serverMembers,
  COLLECTION_NAMES.cooldowns,
]);

/**
 * Rewritten last, in this order: the events before the balances they explain, and a member's
 * account (closed, empty) moved to its pseudonym at the very end, so that nothing can land on
 * it while its history is rewritten.
 */
const LAST = [
  HOLDS,
  LEDGER_COLLECTION_NAMES.ledgerStuckOps,
  LEDGER_COLLECTION_NAMES.ledgerEvents,
  LEDGER_COLLECTION_NAMES.cookies,
  LEDGER_COLLECTION_NAMES.placeWallets,
];

function policy(
  collection: string,
  personalData: PersonalDataCatalog,
): (doc: Document) => 'rewrite' | 'delete' {
  if (KERNEL_DELETED.has(collection) || personalData.collections.get(collection)?.forget === 'delete')
    return () => 'delete';
  // A timer that ran is history; one still due is rewritten and runs as planned.
  if (collection === COLLECTION_NAMES.dueTasks) return (doc) => (doc.status === 'due' ? 'rewrite' : 'delete');
  return () => 'rewrite';
}

/**
 * A member forgotten on request (docs/operating.md, "Privacy"): what is only theirs is deleted
 * (profile, server memberships, web sessions and links, workers and their secrets, cooldowns);
 * everything the books or the canvas need stays, under a pseudonym (`former-…`) in place of
 * their id and their workers' ids, wherever a feature wrote them. Their Cookies go to the vault
 * and their points are burned, both audited, and their accounts are closed before anything is
 * renamed. A durable task runs it under a lease, so it finishes after a crash and never runs
 * twice at once.
 */
export class Erasures {
  readonly #owner: string;
  /** Runs of this process by erasure: a press and the timer share one (the lease is per process). */
  readonly #running = new Map<string, Promise<ErasureDoc | null>>();

  constructor(private readonly deps: ErasureDeps) {
    this.#owner = `${process.pid}:${deps.rng.uuid().slice(0, 8)}`;
  }

  /**
   * What the member still has in play: money held (a round, a heist, a reward on its way), and
   * what each feature declares (a seat, a tip, a placement).
   */
  async inPlay(services: FeatureServices, member: string): Promise<InPlay> {
    const found: InPlay = {};
    // A round holds the stake and the vault's share in two holds: counted once, by its owner.
    const owners = new Map<string, Set<string>>();
    for (const hold of await this.deps.holds.openInvolving(member)) {
      const ids = owners.get(hold.owner.kind) ?? new Set<string>();
      owners.set(hold.owner.kind, ids.add(hold.owner.id));
    }
    for (const [kind, ids] of owners) found[kind] = ids.size;
    const aliases = await this.deps.personalData.aliases(services, member);
    const declared = await this.deps.personalData.inPlay(services, member, aliases);
    for (const [kind, count] of Object.entries(declared)) found[kind] = (found[kind] ?? 0) + count;
    return found;
  }

  /**
   * Records the request and plans its task. Refused with PRIVACY_IN_PLAY while the member has
   * anything in play; a second request while one runs returns the running one.
   */
  async request(
    services: FeatureServices,
    member: string,
    requestedBy: string,
    locale: Locale,
  ): Promise<ErasureDoc> {
    const inPlay = await this.inPlay(services, member);
    if (Object.keys(inPlay).length > 0) throw privacyInPlay(inPlay);
    const workers = await this.deps.personalData.aliases(services, member);
    const erasure = await this.deps.erasures.create({
      _id: `erasure-${this.deps.rng.uuid()}`,
      subject: { id: member, workers },
      pseudonym: newPseudonym((bytes) => this.deps.rng.secret(bytes)),
      requestedBy,
      locale,
      state: 'running',
      createdAt: this.deps.clock.now(),
    });
    this.deps.freeze.add([member, ...workers]);
    await this.deps.scheduler.schedule({
      id: `${ERASE_TASK}:${erasure._id}`,
      kind: ERASE_TASK,
      dueAt: this.deps.clock.now(),
      payload: { id: erasure._id },
    });
    return erasure;
  }

  /**
   * Runs the erasure to its end (again after a crash: each step is safe to repeat). Null when
   * another process holds it.
   */
  run(services: FeatureServices, id: string): Promise<ErasureDoc | null> {
    const running = this.#running.get(id);
    if (running) return running;
    const run = this.#run(services, id).finally(() => this.#running.delete(id));
    this.#running.set(id, run);
    return run;
  }

  async #run(services: FeatureServices, id: string): Promise<ErasureDoc | null> {
    const erasure = await this.#claim(id);
    if (!erasure?.subject) return erasure?.state === 'done' ? erasure : null;
    const lease = this.#keepLease(id);
    try {
      const forfeited = erasure.forfeited ?? (await this.#forfeit(services, erasure));
      const documents = await this.#rewrite(erasure, lease.lost);
      const doneAt = this.deps.clock.now();
      await this.deps.erasures.finish(id, this.#owner, { documents, doneAt });
      await this.#audit(services, erasure, forfeited);
      this.deps.log.info(
        { event: 'privacy.erased', erasure: id, pseudonym: erasure.pseudonym, ...documents },
        'a member was forgotten',
      );
      return { ...erasure, forfeited, documents, doneAt, state: 'done', subject: undefined };
    } finally {
      lease.stop();
    }
  }

  #claim(id: string): Promise<ErasureDoc | null> {
    return this.deps.erasures.claim(id, this.#owner, this.deps.clock.now(), LEASE_MS);
  }

  /** Renews the lease while the run lasts: a long collection never lets a second run start beside it. */
  #keepLease(id: string): { stop(): void; lost(): boolean } {
    let lost = false;
    const timer = setInterval(() => {
      this.#claim(id).then(
        (held) => {
          if (!held) lost = true;
        },
        () => undefined,
      );
    }, LEASE_MS / 5);
    return { stop: () => clearInterval(timer), lost: () => lost };
  }

  /**
   * Empties and closes the member's accounts, once nothing of theirs can start any more (every
   * process has seen the freeze) and nothing of theirs is in play; records what went, so a
   * resumed run never forfeits again (the member may have started afresh by then).
   */
  async #forfeit(
    services: FeatureServices,
    erasure: ErasureDoc,
  ): Promise<{ cookies: number; points: number }> {
    const subject = erasure.subject as NonNullable<ErasureDoc['subject']>;
    await new Promise((resolve) => setTimeout(resolve, FREEZE_REFRESH_MS * 1.5));
    const deadline = Date.now() + QUIET_WITHIN_MS;
    while (Object.keys(await this.inPlay(services, subject.id)).length > 0) {
      if (Date.now() > deadline)
        throw new Error(`erasure ${erasure._id}: the member still has something in play`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const source = erasure.requestedBy === 'self' ? erasure.pseudonym : erasure.requestedBy;
    const opId = `privacy.forfeit:${erasure._id}`;
    const cookies = await this.deps.cookies.forfeitToHouse(subject.id, `${opId}:cookies`, source);
    const points = await this.deps.place.forfeit(subject.id, `${opId}:place`, source);
    // Markers of the forfeits name the member until they are dropped: dropped first.
    await this.deps.ledger.flush();
    const forfeited = { cookies: cookies.moved, points: points.moved };
    await this.deps.erasures.forfeited(erasure._id, this.#owner, forfeited);
    return forfeited;
  }

  /**
   * Every collection, the ledger's last, again until a pass finds nothing: an action that began
   * before the freeze and wrote after the first pass is caught by the next.
   */
  async #rewrite(erasure: ErasureDoc, lost: () => boolean): Promise<{ rewritten: number; deleted: number }> {
    const subject = erasure.subject as NonNullable<ErasureDoc['subject']>;
    const to = new Map([
      [subject.id, erasure.pseudonym],
      ...subject.workers.map((w, i): [string, string] => [w, `${erasure.pseudonym}-w${i + 1}`]),
    ]);
    await this.deps.profiles.forget(subject.id);
    await this.deps.serverMembers.remove([subject.id]);
    const documents = { rewritten: 0, deleted: 0 };
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      let changed = 0;
      for (const collection of await this.deps.data.collectionsToRewrite(LAST)) {
        const counts = await this.deps.data.rewrite(
          collection,
          to,
          policy(collection, this.deps.personalData),
        );
        documents.rewritten += counts.rewritten;
        documents.deleted += counts.deleted;
        changed += counts.rewritten + counts.deleted;
        if (lost() || !(await this.#claim(erasure._id))) {
          throw new Error(`erasure ${erasure._id} lost its lease to another process`);
        }
      }
      if (changed === 0 && pass > 0) return documents;
    }
    return documents;
  }

  async #audit(
    services: FeatureServices,
    erasure: ErasureDoc,
    forfeited: { cookies: number; points: number },
  ): Promise<void> {
    const i18n = this.deps.i18n.for(erasure.locale ?? 'en');
    const by =
      erasure.requestedBy === 'self'
        ? i18n.t('privacy:audit.bySelf')
        : i18n.t('privacy:audit.byModerator', { moderator: erasure.requestedBy });
    await services.admin.record({
      id: `privacy.erased:${erasure._id}`,
      kind: 'privacy.forget',
      actorId: erasure.requestedBy === 'self' ? erasure.pseudonym : erasure.requestedBy,
      subjectId: erasure.pseudonym,
      text: i18n.t('privacy:audit.erased', {
        pseudonym: erasure.pseudonym,
        by,
        cookies: i18n.cookies(forfeited.cookies),
        points: i18n.points(forfeited.points),
      }),
    });
  }

  tasks(services: FeatureServices): TaskHandler[] {
    return [
      defineTask(ERASE_TASK, z.object({ id: z.string() }), async ({ id }) => {
        // Held by another process (a press racing the timer): this run fails and is tried again.
        if (!(await this.run(services, id))) throw new Error(`erasure ${id} is run by another process`);
      }),
    ];
  }
}
