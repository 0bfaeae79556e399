/**
 * What the settings forms may hold and the messages their pages show after a post (by key: no
 * text from the request is echoed). Pure, so the pages' components can read it
 * (engine/console/settingsRoutes.ts does the posts).
 */
import { RULE_PROBLEMS } from './alertRules';

/** The currencies the brands sell in (brands/*.json currency). */
export const CURRENCIES = ['USD', 'CAD', 'AUD'] as const;

export const SETTINGS_NOTES = {
  view: 'Saved: the overview now shows your time zone and currency.',
  zone_format: 'A time zone is written like America/New_York.',
  zone_unknown: 'That is not a time zone this server knows.',
  zone_fraction: 'That zone is off UTC by a fraction of an hour, and the figures are kept by the hour: choose a zone on a whole hour.',
  currency: `The currency must be one of ${CURRENCIES.join(', ')}.`,
  rate: 'Rate saved.',
  rate_invalid: 'A rate is what one unit is worth in US dollars, a number such as 0.73 (at most 6 decimals, above 0 and at most 1000).',
  rate_usd: 'US dollars need no rate.',
  alert_added: 'Alert added.',
  alert_removed: 'Alert removed.',
  alert_missing: 'There is no such alert.',
  ...RULE_PROBLEMS,
  op: 'Unknown change.',
  limited: 'Too many changes to settings in the last minute, so nothing was saved. Wait a minute and try again.',
} as const;
export type SettingsNote = keyof typeof SETTINGS_NOTES;
export const SETTINGS_FAILED: readonly SettingsNote[] = [
  'zone_format',
  'zone_unknown',
  'zone_fraction',
  'currency',
  'rate_invalid',
  'rate_usd',
  'alert_missing',
  ...(Object.keys(RULE_PROBLEMS) as (keyof typeof RULE_PROBLEMS)[]),
  'op',
  'limited',
];
