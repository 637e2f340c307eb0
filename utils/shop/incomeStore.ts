import type { Collection, Db } from 'mongodb';

/** How a role's income is counted: a fixed amount, or a share of the member's balance with a cap. */
export type IncomeTerms = { kind: 'fixed'; amount: number } | { kind: 'share'; pct: number; max: number };

/** What a role pays its holders in one server, and how often (`shop_role_income`). */
export interface RoleIncomeDoc {
  /** `<guild>:<role>`: one income per role. */
  _id: string;
  guildId: string;
  roleId: string;
  terms: IncomeTerms;
  /** The period in hours; periods are counted from the Unix epoch, so every process agrees on them. */
  everyH: number;
  setBy: string;
  setAt: Date;
}

export const SHOP_ROLE_INCOME = 'shop_role_income';

/** The only code that touches `shop_role_income`. */
export class IncomeStore {
  readonly #incomes: Collection<RoleIncomeDoc>;

  constructor(db: Db) {
    this.#incomes = db.collection<RoleIncomeDoc>(SHOP_ROLE_INCOME);
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await db.collection(SHOP_ROLE_INCOME).createIndex({ guildId: 1, roleId: 1 }, { name: 'by_guild' });
  }

  get(guildId: string, roleId: string): Promise<RoleIncomeDoc | null> {
    return this.#incomes.findOne({ _id: `${guildId}:${roleId}` });
  }

  /** The server's incomes, by role. */
  list(guildId: string): Promise<RoleIncomeDoc[]> {
    return this.#incomes.find({ guildId }).sort({ roleId: 1 }).toArray();
  }

  count(guildId: string): Promise<number> {
    return this.#incomes.countDocuments({ guildId });
  }

  /** Sets a role's income, replacing what it paid before; returns what it replaced (null: a new one). */
  async set(income: RoleIncomeDoc): Promise<RoleIncomeDoc | null> {
    return this.#incomes.findOneAndReplace({ _id: income._id }, income, { upsert: true });
  }

  /** Removes a role's income; null when it had none. */
  remove(guildId: string, roleId: string): Promise<RoleIncomeDoc | null> {
    return this.#incomes.findOneAndDelete({ _id: `${guildId}:${roleId}` });
  }
}
