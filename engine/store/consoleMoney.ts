/**
 * The tables of the console's money settings, alerts and one-time sign-in links (migration 022):
 * currency rates set by an admin, alert rules with their episodes and webhook messages, and the
 * sign-in links (the token's SHA-256 only, as sessions keep theirs).
 */
import type { ColumnType } from 'kysely';

export interface CurrencyRatesTable {
  /** ISO 4217, upper-case */
  currency: string;
  /** what one unit is worth in US dollars, in millionths (1.000000 CAD = 730000 → $0.73) */
  usd_micros: number | string;
  set_by: string;
  set_at: string;
}

export interface AlertRulesTable {
  id: string;
  /** engine/console/alertRules.ts ALERT_KINDS */
  kind: string;
  /** what the rule watches: a buyer id, or a brand ('' = every brand) */
  subject: string;
  /** per kind: a percentage (cap, acceptance) or a count */
  threshold: number | string;
  window_hours: number;
  /** failures: '%' (of calls) or 'calls'; '' for the other kinds */
  unit: ColumnType<string, string | undefined, string>;
  /** no-sale: the quiet time in minutes */
  window_minutes: ColumnType<number, number | undefined, number>;
  /** lead-rate: the least visits in each window before it is judged */
  minimum: ColumnType<number, number | undefined, number>;
  created_by: string;
  created_at: string;
}

export interface AlertEpisodesTable {
  rule_id: string;
  /** what fired: e.g. "acme day 90%" (one row per rule and subject: its latest episode) */
  subject: string;
  state: 'open' | 'resolved';
  opened_at: string;
  resolved_at: ColumnType<string | null, string | null | undefined, string | null>;
  message: string;
}

export interface AlertDeliveriesTable {
  id: string;
  /** the webhook's JSON body (an e-mail is written from it too) */
  body: string;
  /** 'webhook' or 'email' */
  channel: ColumnType<string, string | undefined, string>;
  status: 'pending' | 'delivered' | 'refused' | 'failed';
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ConsoleSignInLinksTable {
  token_hash: string;
  user_id: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** the link's token, sealed, until the admin who made it has seen it once */
  shown_once: ColumnType<string | null, string | null | undefined, string | null>;
}
