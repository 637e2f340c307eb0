import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { shopProblems } from '../../utils/shop/books.js';
import { SHOP_ERROR_MESSAGES } from '../../utils/shop/errors.js';
import { IncomeStore } from '../../utils/shop/incomeStore.js';
import { InventoryStore } from '../../utils/shop/inventoryStore.js';
import { ItemStore } from '../../utils/shop/itemStore.js';
import { SHOP_MESSAGES } from '../../utils/shop/messages.js';
import { PurchaseStore } from '../../utils/shop/purchaseStore.js';
import { barredBy } from '../../utils/shop/roleIncome.js';
import { SHOP_SETTINGS } from '../../utils/shop/settings.js';
import { ShopService } from '../../utils/shop/shopService.js';
import { tradeProblems } from '../../utils/shop/tradeBooks.js';
import { TradeStore } from '../../utils/shop/tradeStore.js';
import { Trades } from '../../utils/shop/trades.js';
import { incomeGroup } from './income.js';
import * as inventory from './inventory.js';
import { addItem, addRole, edit, remove } from './moderate.js';
import { backButtonHandler, browse, buyButtonHandler, buyCommand, shelfMenuHandler } from './shelf.js';
import * as trade from './trade.js';

/** What the shop keeps of a purchase, an item and a count after they ended: the ledger keeps what was paid. */
const ENDED_KEPT_MS = 90 * 86_400_000;

export const shopCommand = defineCommand({
  ...localized(SHOP_MESSAGES, 'commands.shop'),
  access: 'everyone',
  category: 'shop:category',
  subcommands: [browse, buyCommand, addRole, addItem, edit, remove],
  groups: [incomeGroup],
  components: [shelfMenuHandler, buyButtonHandler, backButtonHandler],
});

export const inventoryCommand = defineCommand({
  ...localized(SHOP_MESSAGES, 'commands.inventory'),
  access: 'everyone',
  category: 'shop:category',
  subcommands: [inventory.show, inventory.use, inventory.gift, inventory.sell],
  components: [inventory.unitMenuHandler, inventory.useButtonHandler, inventory.sellButtonHandler],
});

export const tradeCommand = defineCommand({
  ...localized(SHOP_MESSAGES, 'commands.trade'),
  access: 'everyone',
  category: 'shop:category',
  subcommands: [trade.start, trade.cookies, trade.add, trade.remove, trade.show],
  components: [
    trade.addButtonHandler,
    trade.pickMenuHandler,
    trade.confirmButtonHandler,
    trade.cancelButtonHandler,
  ],
});

export const shopFeature: Feature = {
  name: 'shop',
  personalData: {
    collections: {
      shop_purchases: { what: 'shop:privacy.shop_purchases' },
      shop_inventory: { what: 'shop:privacy.shop_inventory' },
      shop_trades: { what: 'shop:privacy.shop_trades' },
      shop_role_income: { what: 'shop:privacy.shop_role_income' },
    },
    inPlay: async (services, member) => services.trades.inPlay(member),
  },
  commands: [shopCommand, inventoryCommand, tradeCommand],
  messages: SHOP_MESSAGES,
  settings: SHOP_SETTINGS,
  errors: SHOP_ERROR_MESSAGES,
  ensureIndexes: async (db) => {
    await Promise.all([
      ItemStore.ensureIndexes(db),
      InventoryStore.ensureIndexes(db),
      PurchaseStore.ensureIndexes(db),
      TradeStore.ensureIndexes(db),
      IncomeStore.ensureIndexes(db),
    ]);
  },
  createServices: (infra) => ({
    trades: new Trades({
      ...infra,
      economy: infra.cookieEconomy,
      units: new InventoryStore(infra.db),
      trades: new TradeStore(infra.db),
    }),
    shop: new ShopService({
      ...infra,
      economy: infra.cookieEconomy,
      items: new ItemStore(infra.db),
      units: new InventoryStore(infra.db),
      purchases: new PurchaseStore(infra.db),
      incomes: new IncomeStore(infra.db),
    }),
  }),
  tasks: (deps) => [
    ...deps.services.shop.tasks(barredBy(deps.services)),
    // A trade its timer ended shows how on its board, in the server's language.
    ...deps.services.trades.tasks((ended) => trade.refreshBoard(deps, ended)),
  ],
  prune: async (deps, now) => {
    const before = new Date(now.getTime() - ENDED_KEPT_MS);
    return { ...(await deps.services.shop.prune(before)), trades: await deps.services.trades.prune(before) };
  },
  checkInvariants: async (db, _config, ledger, _now, since) => [
    ...(await shopProblems(db, ledger.houseAccountId, since)),
    ...(await tradeProblems(db, since)),
  ],
};
