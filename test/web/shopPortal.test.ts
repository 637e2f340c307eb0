import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT } from '../../utils/admin/auditStore.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

/**
 * The Shop page's API: a moderator keeps the shops of the servers the bot has seen them in, as
 * `/shop add-role|add-item|edit|remove` do (the same service, the same audit lines), once per
 * Idempotency-Key; what the shop refuses is said in the request's language and changes nothing.
 */
const t = useTestDatabase('web_shop_portal');
const MOD = '897500000000000001';
const MIA = '897500000000000002';
const HERE = '897500000000000010';
const THERE = '897500000000000011';
const ELSEWHERE = '897500000000000012';
const VIP = '897500000000000020';
let web: Awaited<ReturnType<typeof startWeb>>;
let moderator = '';
let member = '';

type Item = { id: string; name: string; price: number };

beforeAll(async () => {
  await clearDatabase(t.db);
  web = await startWeb(t, { MODERATOR_USER_IDS: MOD });
  moderator = await web.signIn(MOD, 'moe');
  member = await web.signIn(MIA, 'mia');
  // The moderator ran commands in two servers; a third has a shop they never were in.
  for (const guild of [THERE, HERE])
    await web.deps.serverMembers.seen(guild, { id: MOD, name: 'moe', joinedAt: null });
});
afterAll(() => web?.close());

const write = (path: string, body: unknown, key: string, headers: Record<string, string> = {}) =>
  web.request('POST', path, { cookie: moderator, body, headers: { 'idempotency-key': key, ...headers } });
const shelf = async (guild: string) =>
  (await web.request('GET', `/api/admin/shop?guild=${guild}`, { cookie: moderator })).json;
const auditOf = (kind: string) => t.db.collection(AUDIT).find({ kind }).toArray();

describe('the Shop page’s API', () => {
  it('GIVEN a moderator seen in two servers THEN the shelf names both, shows the first, and a role added twice with one key is added once', async () => {
    const empty = await web.request('GET', '/api/admin/shop', { cookie: moderator });
    expect(empty.status).toBe(200);
    expect(empty.json).toMatchObject({ servers: [HERE, THERE], guild: HERE, items: [] });
    expect(empty.json.effects.map((e: { name: string }) => e.name)).toEqual([
      'padlock',
      'streak_shield',
      'custom',
    ]);

    const body = { guild: HERE, kind: 'role', role_id: VIP, name: 'VIP', price: 500, stock: 3, hours: 24 };
    const [first, again] = await Promise.all([
      write('/api/admin/shop/items', body, 'shop-add-vip-0001'),
      write('/api/admin/shop/items', body, 'shop-add-vip-0001'),
    ]);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.json.item.id).toBe(first.json.item.id);
    const items = (await shelf(HERE)).items;
    expect(items).toEqual([
      expect.objectContaining({
        id: first.json.item.id,
        name: 'VIP',
        kind: 'role',
        role_id: VIP,
        price: 500,
        stock: 3,
        sold: 0,
        per_member: null,
        hours: 24,
      }),
    ]);
    expect((await shelf(THERE)).items).toEqual([]);
    const lines = await auditOf('shop.add');
    expect(lines.map((l) => l.text)).toEqual([
      `🛒 <@${MOD}> put **VIP** (<@&${VIP}>) in the shop for 500 🍪.`,
    ]);
  });

  it('GIVEN an item added without a name THEN it is named after its effect; a second of that name is refused', async () => {
    const added = await write(
      '/api/admin/shop/items',
      { guild: THERE, kind: 'item', effect: 'padlock', price: 80 },
      'shop-add-lock-001',
    );
    expect(added.json.item).toMatchObject({
      name: 'Padlock',
      kind: 'item',
      effect: 'padlock',
      effect_label: 'Padlock',
    });
    const twice = await write(
      '/api/admin/shop/items',
      { guild: THERE, kind: 'item', effect: 'custom', name: 'padlock', price: 5 },
      'shop-add-lock-002',
    );
    expect([twice.status, twice.json.error.code]).toEqual([409, 'SHOP_NAME_TAKEN']);
    expect(twice.json.error.message).toContain('padlock');
    expect((await shelf(THERE)).items).toHaveLength(1);
  });

  it('GIVEN an edit THEN the price changes and is audited with what changed; a price of 0 is refused in German with the bounds, and nothing changes', async () => {
    const [vip] = (await shelf(HERE)).items as Item[];
    if (!vip) throw new Error('the VIP role is missing');
    const edited = await write(
      `/api/admin/shop/items/${vip.id}`,
      { guild: HERE, price: 450 },
      'shop-edit-vip-001',
    );
    expect(edited.status).toBe(200);
    expect(edited.json.item.price).toBe(450);
    expect(edited.json.changes).toEqual(['price 500 🍪 → 450 🍪']);
    expect((await auditOf('shop.edit')).map((l) => l.text)).toEqual([
      `🛒 <@${MOD}> changed **VIP**: price 500 🍪 → 450 🍪.`,
    ]);

    const refused = await write(
      `/api/admin/shop/items/${vip.id}`,
      { guild: HERE, price: 0 },
      'shop-edit-vip-002',
      {
        'accept-language': 'de',
      },
    );
    expect([refused.status, refused.json.error.code]).toEqual([400, 'INVALID_INPUT']);
    expect(refused.json.error.message).toContain('Der Preis muss zwischen 1 und');
    expect(refused.json.error.message).toContain('0 angegeben');
    expect((await shelf(HERE)).items[0].price).toBe(450);
    expect(await auditOf('shop.edit')).toHaveLength(1);
  });

  it('GIVEN a removal THEN the item leaves the shelf, is audited, and a second removal finds nothing', async () => {
    const [vip] = (await shelf(HERE)).items as Item[];
    if (!vip) throw new Error('the VIP role is missing');
    const removed = await write(
      `/api/admin/shop/items/${vip.id}/remove`,
      { guild: HERE },
      'shop-remove-vip-1',
    );
    expect(removed.json).toEqual({ removed: { id: vip.id, name: 'VIP' } });
    expect((await shelf(HERE)).items).toEqual([]);
    expect((await auditOf('shop.remove')).map((l) => l.text)).toEqual([
      `🛒 <@${MOD}> took **VIP** out of the shop.`,
    ]);
    const again = await write(`/api/admin/shop/items/${vip.id}/remove`, { guild: HERE }, 'shop-remove-vip-2');
    expect([again.status, again.json.error.code]).toEqual([404, 'SHOP_ITEM_UNKNOWN']);
  });

  it('GIVEN a server the moderator was never seen in, or another server’s item THEN it is refused and nothing is written', async () => {
    const read = await web.request('GET', `/api/admin/shop?guild=${ELSEWHERE}`, { cookie: moderator });
    expect([read.status, read.json.error.code]).toEqual([403, 'FORBIDDEN']);
    const add = await write(
      '/api/admin/shop/items',
      { guild: ELSEWHERE, kind: 'item', price: 10 },
      'shop-add-else-01',
    );
    expect([add.status, add.json.error.code]).toEqual([403, 'FORBIDDEN']);
    const [lock] = (await shelf(THERE)).items as Item[];
    if (!lock) throw new Error('the padlock is missing');
    const across = await write(
      `/api/admin/shop/items/${lock.id}`,
      { guild: HERE, price: 1 },
      'shop-edit-across1',
    );
    expect([across.status, across.json.error.code]).toEqual([404, 'SHOP_ITEM_UNKNOWN']);
    expect((await shelf(THERE)).items[0].price).toBe(80);
    const byMember = await web.request('GET', '/api/admin/shop', { cookie: member });
    expect(byMember.status).toBe(403);
  });

  it('GIVEN a moderator the bot has seen in no server THEN the page is told so', async () => {
    const admin = await web.signIn(web.adminId, 'ada');
    const none = await web.request('GET', '/api/admin/shop', { cookie: admin });
    expect(none.json).toMatchObject({ servers: [], guild: null, items: [] });
  });
});
