/**
 * Every migration, in order: one file each (NNN_what.ts exporting up and down), registered
 * once here. Kysely's Migrator runs them by name order, on SQLite and PostgreSQL alike; a
 * migration, once merged, is never edited — a change is a new file.
 */
import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m001 from './001_session_traces';
import * as m002 from './002_leads';
import * as m003 from './003_lead_origin';
import * as m004 from './004_lead_country';
import * as m005 from './005_sales';
import * as m006 from './006_traffic';
import * as m006d from './006_traffic_daily';
import * as m006u from './006_users';
import * as m007r from './007_returns';
import * as m009 from './009_traffic_daily_pairs';
import * as m009h from './009_traffic_hourly_brand';
import * as m009i from './009_traffic_pairs_all_values';
import * as m010 from './010_sale_posts_out';
import * as m011t from './011_console_totp';
import * as m012 from './012_traffic_bounded';
import * as m013 from './013_lead_device_money';
import * as m014 from './014_money_costs';
import * as m015 from './015_money_covering';
import * as m016 from './016_buyers_revisions';
import * as m017 from './017_lead_certificates';
import * as m018 from './018_lead_screening';
import * as m019 from './019_console_user_admin';
import * as m020 from './020_consent_provider';
import * as m021 from './021_editor_brands';
import * as m022 from './022_console_money';
import * as m023 from './023_experiment_exposures';
import * as m024 from './024_alert_rule_params';
import * as m025 from './025_exposure_retention';
import * as m026 from './026_lead_visit_dims';
import * as m027 from './027_delivery_caps';
import * as m028 from './028_lead_screening_reviewed_at';
import * as m029 from './029_stored_leads_recount';
import * as m030 from './030_interrupted_pings';
import * as m031 from './031_lead_site_origin';
import * as m032 from './032_cost_campaign_full';

export const MIGRATIONS: readonly (readonly [name: string, migration: Migration])[] = [
  ['001_session_traces', m001],
  ['002_leads', m002],
  ['003_lead_origin', m003],
  ['004_lead_country', m004],
  ['005_sales', m005],
  ['006_traffic', m006],
  ['006_traffic_daily', m006d],
  ['006_users', m006u],
  ['007_returns', m007r],
  ['009_traffic_daily_pairs', m009],
  ['009_traffic_hourly_brand', m009h],
  ['009_traffic_pairs_all_values', m009i],
  ['010_sale_posts_out', m010],
  ['011_console_totp', m011t],
  ['012_traffic_bounded', m012],
  ['013_lead_device_money', m013],
  ['014_money_costs', m014],
  ['015_money_covering', m015],
  ['016_buyers_revisions', m016],
  ['017_lead_certificates', m017],
  ['018_lead_screening', m018],
  ['019_console_user_admin', m019],
  ['020_consent_provider', m020],
  ['021_editor_brands', m021],
  ['022_console_money', m022],
  ['023_experiment_exposures', m023],
  ['024_alert_rule_params', m024],
  ['025_exposure_retention', m025],
  ['026_lead_visit_dims', m026],
  ['027_delivery_caps', m027],
  ['028_lead_screening_reviewed_at', m028],
  ['029_stored_leads_recount', m029],
  ['030_interrupted_pings', m030],
  ['031_lead_site_origin', m031],
  ['032_cost_campaign_full', m032],
];

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => Object.fromEntries(MIGRATIONS),
};
