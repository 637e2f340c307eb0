import { dateTime, number, t } from '../../i18n.js';
import { card, field, h, option } from '../dom.js';
import { outcome, submitOnce } from '../forms.js';
import { ApiError, get, post } from '../http.js';

interface Setting {
  key: string;
  kind: 'number' | 'flag' | 'channel' | 'role';
  scope: 'global' | 'server';
  description: string;
  value: unknown;
  shown: string;
  default: unknown;
  min?: number;
  max?: number;
  revision: number;
  updated_by: { id: string; name: string | null } | null;
  updated_at: string | null;
}
interface Runtime {
  features: { feature: string; settings: Setting[] }[];
  channels: { id: string; name: string }[] | null;
}
interface Changed {
  key: string;
  value: unknown;
  shown: string;
  revision: number;
  updated_by: { id: string; name: string | null } | null;
  updated_at: string | null;
  warning?: string;
}

/** Who set a setting last and when, or that it has its default. */
function changedBy(s: Pick<Setting, 'updated_by' | 'updated_at'>): string {
  if (!s.updated_by || !s.updated_at) return t('portal.runtime.default');
  return t('portal.runtime.changedBy', {
    name: s.updated_by.name ?? s.updated_by.id,
    at: dateTime(s.updated_at),
  });
}

/** The input a setting's kind asks for: a switch, a number within its limits, a channel, a role. */
function input(s: Setting, channels: Runtime['channels']): { control: HTMLElement; read(): string } {
  if (s.kind === 'flag') {
    const box = h('input', { type: 'checkbox', name: s.key, role: 'switch', checked: s.value === true });
    return { control: box, read: () => (box.checked ? 'on' : 'off') };
  }
  if (s.kind === 'channel' && channels) {
    const current = typeof s.value === 'string' ? s.value : '';
    const known = channels.some((c) => c.id === current);
    const select = h(
      'select',
      { name: s.key },
      option('off', t('portal.runtime.off'), current === ''),
      ...channels.map((c) => option(c.id, `#${c.name}`, c.id === current)),
      current && !known ? option(current, current, true) : null,
    );
    return { control: select, read: () => select.value };
  }
  if (s.kind === 'channel') {
    const text = h('input', {
      type: 'text',
      name: s.key,
      inputmode: 'numeric',
      value: typeof s.value === 'string' ? s.value : 'off',
      placeholder: t('portal.runtime.channelId'),
    });
    return { control: text, read: () => text.value.trim() };
  }
  if (s.kind === 'role') {
    // The bot lists no roles to the page: the role's id (a mention pasted from Discord is taken too).
    const text = h('input', {
      type: 'text',
      name: s.key,
      value: typeof s.value === 'string' ? s.value : 'off',
      placeholder: t('portal.runtime.roleId'),
    });
    return { control: text, read: () => text.value.trim() };
  }
  const box = h('input', {
    type: 'number',
    name: s.key,
    step: 1,
    min: s.min,
    max: s.max,
    value: String(s.value),
  });
  return { control: box, read: () => box.value.trim() };
}

/**
 * Every runtime setting, grouped by feature, with its description, an input of its kind and
 * who changed it when. A change is sent with the revision the form was loaded at: when
 * someone changed it since (another tab, Discord), it is refused and the newer value shown.
 */
export async function runtimePage(root: HTMLElement): Promise<void> {
  const runtime = await get<Runtime>('/api/admin/runtime');
  const title = (feature: string) => t(`portal.runtime.features.${feature}`, { defaultValue: feature });
  const cards = runtime.features.map(({ feature, settings }) => {
    const section = card(
      title(feature),
      h('div', { class: 'settings' }, ...settings.map((s) => settingRow(s, runtime.channels))),
    );
    section.id = `feature-${feature}`;
    return section;
  });
  // Some eighty settings: a jump to each feature, and a filter by name or description.
  const jumps = h(
    'nav',
    { class: 'actions', 'aria-label': t('portal.runtime.jump') },
    ...runtime.features.map(({ feature }) => h('a', { href: `#feature-${feature}` }, title(feature))),
  );
  const filter = h('input', { type: 'search', name: 'filter', placeholder: t('portal.runtime.filter') });
  filter.addEventListener('input', () => {
    const needle = filter.value.trim().toLowerCase();
    for (const row of root.querySelectorAll<HTMLElement>('.setting')) {
      row.hidden = needle !== '' && !(row.textContent ?? '').toLowerCase().includes(needle);
    }
    for (const section of cards) {
      section.hidden = section.querySelector('.setting:not([hidden])') === null;
    }
  });
  root.replaceChildren(
    h('p', { class: 'note' }, t('portal.runtime.intro')),
    h('div', { class: 'filters' }, field(t('portal.runtime.filterLabel'), filter, 'wide'), jumps),
    ...cards,
  );
}

function settingRow(setting: Setting, channels: Runtime['channels'], refusal?: unknown): HTMLElement {
  const { control, read } = input(setting, channels);
  const who = h('p', { class: 'note' }, changedBy(setting));
  const limits =
    setting.kind === 'number' && setting.min !== undefined && setting.max !== undefined
      ? t('portal.runtime.limits', { min: number(setting.min), max: number(setting.max) })
      : '';
  const hint = setting.kind === 'role' ? t('portal.runtime.roleHint') : '';
  const said = outcome();
  if (refusal) said.fail(refusal);
  const form = h(
    'form',
    { 'data-key': setting.key, novalidate: true },
    field(t('portal.runtime.value'), control),
    h('button', { type: 'submit', class: 'primary' }, t('portal.runtime.save')),
  );
  const row = h(
    'div',
    { class: 'setting', 'data-setting': setting.key },
    h(
      'div',
      {},
      h('code', {}, setting.key),
      h('p', {}, setting.description),
      limits ? h('p', { class: 'note' }, limits) : null,
      hint ? h('p', { class: 'note' }, hint) : null,
      h('p', { class: 'note', 'data-scope': setting.scope }, t(`portal.runtime.scope.${setting.scope}`)),
      who,
    ),
    h('div', {}, form, said.element),
  );
  let revision = setting.revision;
  submitOnce(form, async (key) => {
    said.clear();
    try {
      const body = { value: read(), revision };
      const changed = await post<Changed>(`/api/admin/runtime/${encodeURIComponent(setting.key)}`, body, key);
      revision = changed.revision;
      who.textContent = changedBy(changed);
      said.ok(changed.warning ?? t('portal.runtime.saved', { key: setting.key, value: changed.shown }));
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'SETTING_STALE')) return said.fail(error);
      // Someone changed it meanwhile (another tab, Discord): the row shows what holds now, with
      // the refusal, and the next save is made against it.
      const all = await get<Runtime>('/api/admin/runtime');
      const fresh = all.features.flatMap((f) => f.settings).find((s) => s.key === setting.key);
      row.replaceWith(settingRow(fresh ?? setting, channels, error));
    }
  });
  return row;
}
