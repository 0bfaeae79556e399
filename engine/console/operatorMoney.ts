/**
 * The converter of one operator's money: to the currency they chose on Your account (US dollars
 * unless they chose another), at the rates an admin set (engine/store/currencyRates.ts). The
 * overview, the buyers pages and the leads export each take one, so an operator reads every page
 * in the same currency at the same rates.
 */
import type { Store } from '../store/db';
import { findUser } from '../store/console';
import { currencyRates } from '../store/currencyRates';
import { BASE_CURRENCY, converter, type Converter } from '../traffic/currency';

export async function operatorMoney(db: Store, email: string): Promise<Converter> {
  const user = await findUser(db, email);
  return converter(user?.currency || BASE_CURRENCY, await currencyRates(db));
}
