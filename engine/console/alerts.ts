/**
 * Alerts in the console: the open episodes shown on the overview.
 */
import type { Store } from '../store/db';

export interface OpenAlert {
  ruleId: string;
  subject: string;
  message: string;
  openedAt: string;
}

export async function openAlerts(db: Store): Promise<OpenAlert[]> {
  const rows = await db.selectFrom('alert_episodes').selectAll().where('state', '=', 'open').orderBy('opened_at', 'desc').limit(50).execute();
  return rows.map((r) => ({ ruleId: r.rule_id, subject: r.subject, message: r.message, openedAt: r.opened_at }));
}
