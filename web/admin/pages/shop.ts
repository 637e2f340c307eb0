import { number, t } from '../../i18n.js';
import { card, field, h, option, table } from '../dom.js';
import { outcome, submitOnce } from '../forms.js';
import { ApiError, get, newKey, post, query } from '../http.js';

interface Item {
  id: string;
  name: string;
  kind: 'role' | 'item';
  role_id: string | null;
  effect: string | null;
  effect_label: string | null;
  price: number;
  stock: number | null;
  sold: number | null;
  per_member: number | null;
  required_role_id: string | null;
  hours: number | null;
  description: string;
}
interface Shelf {
  servers: string[];
  guild: string | null;
  effects: { name: string; label: string }[];
  items: Item[];
}
/** What the form sends for an item's terms: an empty limit is none (null). */
interface Terms {
  name: string;
  price?: number;
  stock: number | null;
  per_member: number | null;
  required_role_id: string | null;
  hours: number | null;
  description: string;
}

const cookies = (amount: number) => `${number(amount)} 🍪`;
const orNone = (value: number | null, none: string) => (value === null ? none : number(value));
const input = (name: string, props: Record<string, string | number | boolean | undefined> = {}) =>
  h('input', { name, type: 'text', autocomplete: 'off', ...props });
const whole = (name: string, value: number | null = null) =>
  input(name, { type: 'number', step: 1, min: 0, inputmode: 'numeric', value: value ?? undefined });

/** The inputs of an item's terms, filled with its values (empty for a new one). */
function termInputs(item?: Item) {
  return {
    name: input('name', { maxlength: 40, value: item?.name }),
    price: whole('price', item?.price ?? null),
    stock: whole('stock', item?.stock ?? null),
    per_member: whole('per_member', item?.per_member ?? null),
    required_role_id: input('required_role_id', {
      inputmode: 'numeric',
      value: item?.required_role_id ?? undefined,
    }),
    hours: whole('hours', item?.hours ?? null),
    description: input('description', { maxlength: 200, value: item?.description }),
  };
}
type TermInputs = ReturnType<typeof termInputs>;

/** The labelled inputs, in the order the table shows them. */
const termFields = (i: TermInputs) => [
  field(t('portal.shop.name'), i.name),
  field(t('portal.shop.price'), i.price),
  field(t('portal.shop.stock'), i.stock),
  field(t('portal.shop.perMember'), i.per_member),
  field(t('portal.shop.requiredRole'), i.required_role_id),
  field(t('portal.shop.hours'), i.hours),
  field(t('portal.shop.description'), i.description, 'wide'),
];

/** The terms as typed; the shop itself refuses what is out of its bounds, in its own words. */
function readTerms(i: TermInputs): Terms {
  const limit = (box: HTMLInputElement) => (box.value.trim() === '' ? null : Number(box.value));
  const price = limit(i.price);
  return {
    name: i.name.value.trim(),
    ...(price === null ? {} : { price }),
    stock: limit(i.stock),
    per_member: limit(i.per_member),
    required_role_id: i.required_role_id.value.trim() || null,
    hours: limit(i.hours),
    description: i.description.value.trim(),
  };
}

/** The shop no longer has the item: the server names it by its id, the page by its name. */
const gone = (error: unknown) => error instanceof ApiError && error.code === 'SHOP_ITEM_UNKNOWN';

/** What a row shows of an item's kind: its role, or its effect. */
const kindOf = (item: Item) =>
  item.kind === 'role'
    ? t('portal.shop.roleOf', { id: item.role_id ?? '' })
    : (item.effect_label ?? item.effect ?? '');

const stockOf = (item: Item) =>
  item.stock === null
    ? t('portal.shop.noLimit')
    : t('portal.shop.stockLeft', { left: number(item.stock), sold: number(item.sold ?? 0) });

/** The add form: a role by its id, or an item by its effect, and the terms of either. */
function addForm(shelf: Shelf, guild: string, added: () => Promise<void>): HTMLElement {
  const kind = h(
    'select',
    { name: 'kind' },
    option('role', t('portal.shop.kinds.role')),
    option('item', t('portal.shop.kinds.item')),
  );
  const roleId = input('role_id', { inputmode: 'numeric', placeholder: '123456789012345678' });
  const effect = h('select', { name: 'effect' }, ...shelf.effects.map((e) => option(e.name, e.label)));
  const roleField = field(t('portal.shop.roleId'), roleId);
  const effectField = field(t('portal.shop.effect'), effect);
  const show = () => {
    roleField.hidden = kind.value !== 'role';
    effectField.hidden = kind.value !== 'item';
  };
  kind.addEventListener('change', show);
  show();
  const inputs = termInputs();
  inputs.name.placeholder = t('portal.shop.namePlaceholder');
  const said = outcome();
  const form = h(
    'form',
    { id: 'shop-add', novalidate: true },
    field(t('portal.shop.kind'), kind),
    roleField,
    effectField,
    ...termFields(inputs),
    h('button', { type: 'submit', class: 'primary' }, t('portal.shop.submitAdd')),
  );
  submitOnce(form, async (key) => {
    said.clear();
    const role = kind.value === 'role';
    if (role && !/^\d{15,21}$/.test(roleId.value.trim())) return said.ok(t('portal.shop.needRole'));
    const { name, ...terms } = readTerms(inputs);
    const body = {
      guild,
      kind: kind.value,
      ...(role ? { role_id: roleId.value.trim() } : { effect: effect.value }),
      ...(name ? { name } : {}),
      ...terms,
    };
    try {
      const { item } = await post<{ item: Item }>('/api/admin/shop/items', body, key);
      said.ok(t('portal.shop.added', { name: item.name, price: cookies(item.price) }));
      form.reset();
      show();
      await added();
    } catch (error) {
      said.fail(error);
    }
  });
  return card(t('portal.shop.add'), h('p', { class: 'note' }, t('portal.shop.addIntro')), form, said.element);
}

/** Where a row acts: its server's shop, the line that says how it went, and the shelf read again. */
interface Shelved {
  guild: string;
  said: ReturnType<typeof outcome>;
  reload: () => Promise<void>;
}

/** The shelf: one row per item, each with Edit (its terms in place) and Remove (after a confirm). */
function shelfTable(at: Shelved) {
  const { wrap, body } = table([
    t('portal.shop.name'),
    t('portal.shop.kind'),
    t('portal.shop.price'),
    t('portal.shop.stock'),
    t('portal.shop.perMember'),
    t('portal.shop.requiredRole'),
    t('portal.shop.hours'),
    t('portal.shop.description'),
    '',
  ]);
  const row = (item: Item): HTMLTableRowElement => {
    const edit = h('button', { type: 'button' }, t('portal.shop.edit'));
    const remove = h('button', { type: 'button', class: 'danger' }, t('portal.shop.remove'));
    const buttons = () => h('div', { class: 'actions' }, edit, remove);
    const actions = h('td', {}, buttons());
    const cell = (label: string, text: string, className?: string) =>
      h('td', { class: className, 'data-label': text ? t(`portal.shop.${label}`) : undefined }, text);
    const tr = h(
      'tr',
      { 'data-item': item.id },
      cell('name', item.name),
      cell('kind', kindOf(item)),
      cell('price', cookies(item.price), 'num'),
      cell('stock', stockOf(item), 'num'),
      cell('perMember', orNone(item.per_member, t('portal.shop.noLimit')), 'num'),
      cell('requiredRole', item.required_role_id ?? '—'),
      cell('hours', orNone(item.hours, t('portal.shop.forGood')), 'num'),
      cell('description', item.description),
      actions,
    );
    edit.addEventListener('click', () => tr.replaceWith(editRow(item, tr, at)));
    remove.addEventListener('click', () =>
      actions.replaceChildren(confirmRemove(item, at, () => actions.replaceChildren(buttons()))),
    );
    return tr;
  };
  return { wrap, fill: (items: Item[]) => body.replaceChildren(...items.map(row)) };
}

/** Remove asked again in the row: Yes takes the item off the shelf (once, however pressed), Cancel keeps it. */
function confirmRemove(item: Item, at: Shelved, cancel: () => void): HTMLElement {
  const yes = h('button', { type: 'button', class: 'danger' }, t('portal.shop.confirmYes'));
  const no = h('button', { type: 'button' }, t('portal.shop.cancel'));
  const key = newKey();
  no.addEventListener('click', cancel);
  yes.addEventListener('click', async () => {
    yes.disabled = true;
    try {
      await post(`/api/admin/shop/items/${item.id}/remove`, { guild: at.guild }, key);
      at.said.ok(t('portal.shop.removed', { name: item.name }));
      await at.reload();
    } catch (error) {
      yes.disabled = false;
      if (!gone(error)) return at.said.fail(error);
      // Taken off meanwhile (another tab, Discord, an answer lost on the way): the shelf shows it.
      at.said.fail(new Error(t('portal.shop.gone', { name: item.name })));
      await at.reload();
    }
  });
  return h(
    'div',
    { class: 'confirm' },
    h('p', { class: 'confirm-text' }, t('portal.shop.confirmRemove', { name: item.name })),
    h('div', { class: 'actions' }, yes, no),
  );
}

/** An item's terms edited in its row; Save sends them all (the shop keeps what did not change). */
function editRow(item: Item, shown: HTMLTableRowElement, at: Shelved): HTMLTableRowElement {
  const inputs = termInputs(item);
  const cancel = h('button', { type: 'button' }, t('portal.shop.cancel'));
  const form = h(
    'form',
    { class: 'shop-edit', novalidate: true },
    ...termFields(inputs),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, t('portal.shop.save')),
      cancel,
    ),
  );
  const editing = h('tr', { 'data-item': item.id, class: 'editing' }, h('td', { colspan: 9 }, form));
  cancel.addEventListener('click', () => editing.replaceWith(shown));
  submitOnce(form, async (key) => {
    try {
      const r = await post<{ item: Item; changes: string[] }>(
        `/api/admin/shop/items/${item.id}`,
        { guild: at.guild, ...readTerms(inputs) },
        key,
      );
      at.said.ok(
        r.changes.length === 0
          ? t('portal.shop.unchanged', { name: r.item.name })
          : t('portal.shop.saved', { name: r.item.name, changes: r.changes.join(', ') }),
      );
      await at.reload();
    } catch (error) {
      at.said.fail(gone(error) ? new Error(t('portal.shop.gone', { name: item.name })) : error);
    }
  });
  return editing;
}

/**
 * Each server's shop, as `/shop add-role|add-item|edit|remove`: the shelf as a table, edited in
 * place, an item added below it. A moderator seen in several servers picks which shop.
 */
export async function shopPage(root: HTMLElement): Promise<void> {
  const open = async (guild: string | null) => {
    const shelf = await get<Shelf>(`/api/admin/shop${query({ guild })}`);
    if (shelf.guild === null) {
      root.replaceChildren(
        card(t('portal.shop.title'), h('p', { class: 'note' }, t('portal.shop.noServer'))),
      );
      return;
    }
    const chosen = shelf.guild;
    const said = outcome();
    const empty = h('p', { class: 'note' }, t('portal.shop.empty'));
    const fill = (items: Item[]) => {
      shown.fill(items);
      empty.hidden = items.length > 0;
    };
    // After a change only the shelf is read again: what the forms said stays.
    const refresh = async () => fill((await get<Shelf>(`/api/admin/shop${query({ guild: chosen })}`)).items);
    const shown = shelfTable({ guild: chosen, said, reload: refresh });
    fill(shelf.items);
    const server = h(
      'select',
      { name: 'guild' },
      ...shelf.servers.map((id) => option(id, id, id === chosen)),
    );
    server.addEventListener('change', () => void open(server.value).catch((error) => said.fail(error)));
    root.replaceChildren(
      card(
        t('portal.shop.title'),
        h('p', { class: 'note' }, t('portal.shop.intro')),
        shelf.servers.length > 1
          ? h('div', { class: 'filters' }, field(t('portal.shop.server'), server))
          : null,
        shown.wrap,
        empty,
        said.element,
      ),
      addForm(shelf, chosen, refresh),
    );
  };
  await open(null);
}
