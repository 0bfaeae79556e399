/**
 * Screening a stored lead on the lead POST: the velocity keys hashed, earlier requests counted
 * across brands, outside scrubs asked (when switched on), the checks run and the result stored
 * with the lead (engine/store/screening.ts) before its sale starts. A failure here never loses
 * the lead: it is sold as unscreened (buyers asking a minimum score are not offered it).
 */
import { dayIn } from '../../geo/regionTimeZones';
import type { Brand } from '../../../schemas/brand.types';
import type { LeadBody } from '../record';
import type { Store } from '../../store/db';
import { saveScreening, velocityCounts } from '../../store/screening';
import { screen, screeningSettings, type Screening } from './index';
import { configuredScrubs, runScrubs } from './scrubs';
import { scrubTimeoutMs } from './httpScrub';
import { networkOf, velocityKey } from './velocity';
import { ageOn } from '../../geo/servedPlaces';
import { consentProviderOf } from '../../site/consentProvider';

export interface ScreenContext {
  leadId: string;
  /** the client's full address (only its network's hash is kept) */
  ip: string;
  region: string;
  loanKind: 'general' | 'title';
  now: Date;
}

export async function screenStoredLead(db: Store, brand: Brand, body: LeadBody, ctx: ScreenContext): Promise<Screening> {
  const settings = screeningSettings(brand);
  const keys = {
    phone_key: velocityKey('phone', body.phone.replace(/\D/g, '')),
    email_key: velocityKey('email', body.email.trim().toLowerCase()),
    ip_key: velocityKey('ip', networkOf(ctx.ip)),
    device_key: velocityKey('device', body.tracking.uuid ?? ''),
  };
  const [velocity, scrubs] = await Promise.all([
    settings.checks.velocity.action === 'off' ? undefined : velocityCounts(db, keys, ctx.now).catch(() => undefined),
    settings.checks.scrub.action === 'off'
      ? []
      : runScrubs(configuredScrubs(), { phone: body.phone, email: body.email, country: brand.country }, scrubTimeoutMs()),
  ]);
  const result = screen(
    {
      phone: body.phone,
      email: body.email,
      signals: body.signals,
      trapFilled: Boolean(body.website),
      velocity,
      scrubs,
      consentProviderMissing: consentProviderOf(brand) !== undefined && !body.thirdPartyConsent,
      country: brand.country,
      region: ctx.region,
      zip: body.zip,
      age: ageOn(body.dateOfBirth, dayIn(ctx.now, brand.country, ctx.region)) ?? 0,
      amount: body.amount,
      loanKind: ctx.loanKind,
      amountRange: brand.screening?.amount,
    },
    settings,
  );
  await saveScreening(db, {
    lead_id: ctx.leadId,
    created_at: ctx.now.toISOString(),
    score: result.score,
    band: result.band,
    codes: result.codes.join(','),
    routing: result.routing,
    ...keys,
  });
  return result;
}
