/**
 * Pings a run left `sending` — it lost its sale (held up past its lease while another worker took
 * the sale over) or died with them out — on sales decided before the run taking a sale up settled
 * such pings `interrupted` (../sales.ts settleInterruptedPings). A decided sale is never taken up
 * again, so nothing else would ever settle them: they are settled as that run would have, the
 * ping's id kept. A pending sale's are left to the run that holds it (its own pings, still out) or
 * takes it up next. One statement: run again (a second instance), it finds nothing to settle.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db';
import { PING_INTERRUPTED } from '../sales';

export async function settleDecidedSalesPings(db: Kysely<Database>): Promise<void> {
  await sql`update sale_events set outcome = 'interrupted', detail = cast(${`${PING_INTERRUPTED} (`} as text) || detail || ')'
    where step = 'ping' and outcome = 'sending' and lead_id in (select lead_id from lead_sales where status <> 'pending')`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await settleDecidedSalesPings(db as Kysely<Database>);
}

/** The rows' answers were never recorded: nothing to put back. */
export async function down(): Promise<void> {}
