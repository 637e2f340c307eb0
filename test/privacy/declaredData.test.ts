import { beforeEach, describe, expect, it } from 'vitest';
import { FEATURES } from '../../commands/index.js';
import { isAppError } from '../../src/errors.js';
import { assembleFeatures } from '../../src/features/assemble.js';
import type { Feature } from '../../src/features/feature.js';
import { moneyLayer } from '../../utils/money/moneyLayer.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

/**
 * A feature says what it keeps about a member in its `personalData`, and the privacy feature
 * exports and forgets by that alone: a feature it has never heard of is handled the same way.
 */
const t = useTestDatabase('privacy_declared');
const NORA = '876000000000000001';

/** Members writing a note the notes feature has not saved yet: a draft in play. */
const drafting = new Set<string>();

const notesFeature: Feature = {
  name: 'notes',
  messages: {
    en: { privacy: { notes_private: 'Your private notes' } },
    de: { privacy: { notes_private: 'Deine privaten Notizen' } },
  },
  personalData: {
    collections: {
      notes_private: { what: 'notes:privacy.notes_private', forget: 'delete', hidden: { pin: 'secret' } },
    },
    inPlay: async (_services, member) => ({ 'notes.draft': drafting.has(member) ? 1 : 0 }),
  },
};

function notesDeps() {
  return makeBotDeps(t, { assembly: assembleFeatures([moneyLayer, ...FEATURES, notesFeature]) });
}

async function writeNotes(): Promise<void> {
  await t.db
    .collection('notes_private')
    .insertOne({ _id: 'n1' as never, owner: NORA, text: 'mine', pin: '1234' });
  // Not declared: kept, as every collection that names a member, under the pseudonym.
  await t.db.collection('notes_shared').insertOne({ _id: 's1' as never, owner: NORA, text: 'ours' });
}

describe('personal data a feature declares', () => {
  beforeEach(async () => {
    drafting.clear();
    await clearDatabase(t.db);
  });

  it('GIVEN a feature that declares a collection to delete WHEN its member is forgotten THEN that collection loses their documents and an undeclared one keeps them under the pseudonym', async () => {
    const { deps } = notesDeps();
    await writeNotes();

    const erasure = await deps.services.privacy.forget(deps.services, NORA, 'self', 'en');

    expect(erasure.state).toBe('done');
    expect(await t.db.collection('notes_private').countDocuments()).toBe(0);
    const shared = await t.db.collection('notes_shared').findOne({ _id: 's1' as never });
    expect(shared?.owner).toBe(erasure.pseudonym);
  });

  it('GIVEN a feature that declares something in play for the member WHEN they ask to be forgotten THEN it is refused with what is in play and nothing is erased', async () => {
    const { deps } = notesDeps();
    await writeNotes();
    drafting.add(NORA);

    const refusal = await deps.services.privacy
      .forget(deps.services, NORA, 'self', 'en')
      .catch((e: unknown) => e);

    expect(isAppError(refusal, 'PRIVACY_IN_PLAY')).toBe(true);
    expect(isAppError(refusal) && refusal.context).toMatchObject({ 'notes.draft': 1 });
    expect(await t.db.collection('notes_private').countDocuments()).toBe(1);
  });

  it('GIVEN a feature that declares what a collection holds and a field that never leaves the bot WHEN its member exports THEN the file says what it is in their language and hides the field', async () => {
    const { deps } = notesDeps();
    await writeNotes();

    const file = await deps.services.privacy.exportFor(deps.services, NORA, deps.i18n.for('de'));
    const { collections } = JSON.parse(file.data.toString('utf8'));

    expect(collections.notes_private.what).toBe('Deine privaten Notizen');
    expect(collections.notes_private.documents[0].text).toBe('mine');
    expect(collections.notes_private.documents[0].pin).toBe(
      `[${deps.i18n.for('de').t('privacy:export.hidden.secret')}]`,
    );
    expect(collections.notes_shared.documents[0].text).toBe('ours');
  });

  it('GIVEN two features that declare the same collection THEN the assembly refuses them', () => {
    const twin: Feature = { name: 'twin', personalData: notesFeature.personalData };
    expect(() => assembleFeatures([notesFeature, twin])).toThrow(/notes_private is declared twice/);
  });
});
