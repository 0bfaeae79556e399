/**
 * The currency rates an admin sets in the console (engine/traffic/currency.ts reads them): one
 * row per currency, what one unit is worth in US dollars in millionths; each change audited with
 * the rate before and after.
 */
import type { Store } from './db';
import { audit } from './console';

export async function currencyRates(db: Store): Promise<Map<string, number>> {
  const rows = await db.selectFrom('currency_rates').select(['currency', 'usd_micros']).execute();
  return new Map(rows.map((r) => [r.currency, Number(r.usd_micros)]));
}

export async function rateRows(db: Store) {
  return db.selectFrom('currency_rates').selectAll().orderBy('currency').execute();
}

export async function setCurrencyRate(db: Store, currency: string, usdMicros: number, actor: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('currency_rates').select('usd_micros').where('currency', '=', currency).executeTakeFirst();
    const at = new Date().toISOString();
    if (before) await trx.updateTable('currency_rates').set({ usd_micros: usdMicros, set_by: actor, set_at: at }).where('currency', '=', currency).execute();
    else await trx.insertInto('currency_rates').values({ currency, usd_micros: usdMicros, set_by: actor, set_at: at }).execute();
    await audit(trx, { actor, action: 'currency_rate_set', target: currency, detail: { before: before ? Number(before.usd_micros) : null, after: usdMicros } });
  });
}
