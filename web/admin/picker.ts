import { t } from '../i18n.js';
import { h } from './dom.js';
import { get } from './http.js';

interface Found {
  id: string;
  kind: 'member' | 'worker';
  name: string;
  owner_id?: string;
  owner_name?: string | null;
}

const ID = /^(\d{17,20}|w-[0-9a-f]{16})$/;

/** A member or worker picked, as the API takes it (an id), or '' while none is. */
export interface Picker {
  element: HTMLElement;
  value(): string;
  clear(): void;
}

/**
 * Search as you type: members by name or id, and (where `workers`) linked workers by id or
 * label with their owner. A choice fills in the id; an id typed whole is taken as it is (the
 * server refuses one it does not know). Arrow keys and Enter choose, Escape closes.
 */
export function picker(label: string, options: { workers: boolean; name: string }): Picker {
  const input = h('input', {
    type: 'text',
    name: options.name,
    autocomplete: 'off',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    placeholder: t(options.workers ? 'portal.picker.placeholderWorkers' : 'portal.picker.placeholder'),
  });
  const list = h('ul', { role: 'listbox', hidden: true });
  const listId = `${options.name}-choices`;
  list.id = listId;
  input.setAttribute('aria-controls', listId);
  let chosen = '';
  let found: Found[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;

  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    active = -1;
  };
  const choose = (f: Found) => {
    chosen = f.id;
    input.value = `${f.name} (${f.id})`;
    input.dataset.id = f.id;
    close();
    input.dispatchEvent(new Event('change', { bubbles: true }));
  };
  const show = () => {
    list.replaceChildren(
      ...found.map((f, i) => {
        const owner =
          f.kind === 'worker' ? t('portal.picker.workerOf', { owner: f.owner_name ?? f.owner_id }) : '';
        const item = h(
          'li',
          { role: 'option', 'aria-selected': String(i === active), 'data-id': f.id },
          `${f.name} · ${f.id}${owner ? ` · ${owner}` : ''}`,
        );
        item.addEventListener('mousedown', (event) => {
          event.preventDefault();
          choose(f);
        });
        return item;
      }),
    );
    if (found.length === 0) list.append(h('li', { 'aria-disabled': 'true' }, t('portal.picker.none')));
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  };
  input.addEventListener('input', () => {
    const text = input.value.trim();
    chosen = ID.test(text) ? text : '';
    delete input.dataset.id;
    clearTimeout(timer);
    if (text.length < 2) return close();
    timer = setTimeout(async () => {
      const mine = ++asked;
      const { results } = await get<{ results: Found[] }>(
        `/api/admin/members?q=${encodeURIComponent(text.slice(0, 40))}`,
      );
      if (mine !== asked) return;
      found = results.filter((r) => options.workers || r.kind === 'member');
      active = -1;
      show();
    }, 200);
  });
  input.addEventListener('keydown', (event) => {
    if (list.hidden) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      active = (active + step + found.length) % Math.max(found.length, 1);
      show();
    } else if (event.key === 'Enter' && active >= 0 && found[active]) {
      event.preventDefault();
      choose(found[active] as Found);
    } else if (event.key === 'Escape') close();
  });
  input.addEventListener('blur', () => setTimeout(close, 100));
  const element = h('label', { class: 'picker wide' }, label, input, list);
  return {
    element,
    value: () => chosen,
    clear: () => {
      chosen = '';
      input.value = '';
      delete input.dataset.id;
    },
  };
}
