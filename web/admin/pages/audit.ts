import { dateTime, t } from '../../i18n.js';
import { card, field, h, option, table } from '../dom.js';
import { get, query } from '../http.js';
import { picker } from '../picker.js';

interface Entry {
  id: string;
  kind: string;
  actor_id: string;
  actor_name: string | null;
  subject_id: string | null;
  subject_name: string | null;
  text: string;
  at: string;
}

/** Every moderator's action, newest first: by kind, moderator and member, a page at a time, and as CSV. */
export async function auditPage(root: HTMLElement): Promise<void> {
  const kind = h('select', { name: 'kind' }, option('', t('portal.audit.allKinds')));
  const actor = picker(t('portal.audit.actor'), { workers: false, name: 'audit-actor' });
  const subject = picker(t('portal.audit.subject'), { workers: false, name: 'audit-subject' });
  const { wrap, body } = table([
    t('portal.audit.when'),
    t('portal.audit.kind'),
    t('portal.audit.actor'),
    t('portal.audit.what'),
  ]);
  const more = h('button', { type: 'button', hidden: true }, t('portal.more'));
  const empty = h('p', { class: 'note', hidden: true }, t('portal.audit.none'));
  const csv = h('a', { href: '/api/admin/audit.csv', download: '', id: 'audit-csv' }, t('portal.audit.csv'));
  let next: string | null = null;
  const filters = () => ({ kind: kind.value, actor: actor.value(), subject: subject.value() });
  const label = (k: string) => t(`portal.audit.kinds.${k.replace('.', '_')}`, { defaultValue: k });

  const load = async (fresh: boolean) => {
    const page = await get<{ entries: Entry[]; next: string | null; kinds: string[] }>(
      `/api/admin/audit${query({ ...filters(), limit: 50, before: fresh ? null : next })}`,
    );
    if (kind.options.length === 1) kind.append(...page.kinds.map((k) => option(k, label(k))));
    if (fresh) body.replaceChildren();
    for (const e of page.entries) {
      body.append(
        h(
          'tr',
          { 'data-kind': e.kind },
          h('td', {}, dateTime(e.at)),
          h('td', {}, label(e.kind)),
          h('td', {}, e.actor_name ?? e.actor_id),
          h('td', {}, e.text),
        ),
      );
    }
    next = page.next;
    more.hidden = next === null;
    empty.hidden = body.childElementCount > 0;
    csv.href = `/api/admin/audit.csv${query(filters())}`;
  };
  const form = h(
    'form',
    { class: 'filters' },
    field(t('portal.audit.kind'), kind),
    actor.element,
    subject.element,
    h('button', { type: 'submit', class: 'primary' }, t('portal.show')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void load(true);
  });
  more.addEventListener('click', () => void load(false));
  root.replaceChildren(card(t('portal.audit.title'), form, h('p', {}, csv), wrap, empty, more));
  await load(true);
}
