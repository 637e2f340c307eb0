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

/** The choices under a combobox: shown, moved through with the arrow keys, chosen. */
function listbox(input: HTMLInputElement, id: string, choose: (f: Found) => void) {
  const list = h('ul', { role: 'listbox', id, hidden: true });
  input.setAttribute('aria-controls', id);
  let found: Found[] = [];
  let active = -1;
  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    active = -1;
  };
  const line = (f: Found) => {
    const owner =
      f.kind === 'worker' ? ` · ${t('portal.picker.workerOf', { owner: f.owner_name ?? f.owner_id })}` : '';
    return `${f.name} · ${f.id}${owner}`;
  };
  const show = () => {
    list.replaceChildren(
      ...found.map((f, i) => {
        const item = h(
          'li',
          { role: 'option', 'aria-selected': String(i === active), 'data-id': f.id },
          line(f),
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
  input.addEventListener('keydown', (event) => {
    if (list.hidden) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      active = (active + (event.key === 'ArrowDown' ? 1 : -1) + found.length) % Math.max(found.length, 1);
      show();
    } else if (event.key === 'Enter' && found[active]) {
      event.preventDefault();
      choose(found[active] as Found);
    } else if (event.key === 'Escape') close();
  });
  input.addEventListener('blur', () => setTimeout(close, 100));
  return {
    list,
    close,
    offer(results: Found[]) {
      found = results;
      active = -1;
      show();
    },
  };
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
  let chosen = '';
  const choices = listbox(input, `${options.name}-choices`, (f) => {
    chosen = f.id;
    input.value = `${f.name} (${f.id})`;
    input.dataset.id = f.id;
    choices.close();
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  input.addEventListener('input', () => {
    const text = input.value.trim();
    chosen = ID.test(text) ? text : '';
    delete input.dataset.id;
    clearTimeout(timer);
    if (text.length < 2) return choices.close();
    timer = setTimeout(async () => {
      const mine = ++asked;
      const { results } = await get<{ results: Found[] }>(
        `/api/admin/members?q=${encodeURIComponent(text.slice(0, 40))}`,
      );
      // A slower answer to an earlier keystroke never replaces a newer one.
      if (mine === asked) choices.offer(results.filter((r) => options.workers || r.kind === 'member'));
    }, 200);
  });
  return {
    element: h('label', { class: 'picker wide' }, label, input, choices.list),
    value: () => chosen,
    clear: () => {
      chosen = '';
      input.value = '';
      delete input.dataset.id;
    },
  };
}
