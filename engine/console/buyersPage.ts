/**
 * The buyers page's figures (pages/_console/buyers.tsx) for a range of the operator's own days:
 * from their midnight to their midnight in the time zone set on /account, as the overview counts
 * them, and in their currency. Read by UTC day, a sale at 03:30 UTC counted on the overview's
 * evening before (New York) and on the buyers page's next day: the two pages, asked the same
 * range, disagreed.
 */
import type { Store } from '../store/db';
import { findUser } from '../store/console';
import { currencyRates } from '../store/currencyRates';
import { BASE_CURRENCY, converter, type Converter } from '../traffic/currency';
import { buyersOverview, type BuyerStats } from './buyerQueries';
import { zonedRange } from './periods';
import { overviewQuery } from './range';

/** `asked`: the range as the page's query gives it (none: the last 7 of the operator's days). */
export async function operatorBuyers(
  db: Store,
  email: string,
  asked: { from: string; to: string },
  capsUsed: ReadonlyMap<string, string> = new Map(),
  now = new Date(),
): Promise<{ from: string; to: string; problem: string; rows: BuyerStats[]; zone: string; money: Converter }> {
  const user = await findUser(db, email);
  const zone = user?.time_zone || 'UTC';
  const { from, to, problem } = overviewQuery(asked, new Set(), now, zone);
  const money = converter(user?.currency || BASE_CURRENCY, await currencyRates(db));
  const range = zonedRange(from, to, zone);
  return { from, to, problem, rows: await buyersOverview(db, range.from, range.to, capsUsed, money, now), zone, money };
}
