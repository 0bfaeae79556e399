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
  return (await operatorView(db, email)).money;
}

/** An operator's converter and time zone (set on Your account; UTC unless they set one), whose days a page counts. */
export async function operatorView(db: Store, email: string): Promise<{ money: Converter; zone: string }> {
  const user = await findUser(db, email);
  return { money: converter(user?.currency || BASE_CURRENCY, await currencyRates(db)), zone: user?.time_zone || 'UTC' };
}
