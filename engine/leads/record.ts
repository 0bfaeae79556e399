/**
 * recordLead: a loan request from the embedded form, checked and stored before anything else
 * happens (SPEC §1, issue 10). The body has passed schemas/api/lead.schema.json; here come the
 * rules a schema cannot say, each refusal a 4xx with the reason:
 * - the honeypot field filled → 202 and nothing stored (a bot learns nothing);
 * - a consent version we never showed → 400; the text of that version for this brand and its
 *   SHA-256 are stored with the lead, with time, IP and user agent;
 * - under 18 on the day → 422; a ZIP we do not know → 422; a state the brand cannot serve
 *   (SPEC §1, and the title brands' exclusions) → 422 and no lead (no connection to a lender);
 * - title brands need the purpose and the vehicle → 400.
 * Then one transaction stores the lead and its outbox rows; the same idempotency key again is
 * the same lead (200), never a second one.
 */
import { createHash } from 'node:crypto';
import type { LeadRequest } from '../../schemas/api.types';
import type { Brand } from '../../schemas/brand.types';
import { TITLE_APPLY } from '../applyUrl';
import { consentText, isConsentVersion } from '../consent';
import { ApiError } from '../http/api';
import { stateByCode } from '../states';
import type { Store } from '../store/db';
import { insertLead } from '../store/leads';
import { destinationsOf } from './destinations';
import { ageOn, MIN_AGE, stateUnavailableReason, type LoanKind } from './rules';
import { sealText } from './sealing';

/** The body of POST /api/leads, as its schema declares it (schemas/api/lead.schema.json → schemas/api.types.ts). */
export type LeadBody = LeadRequest;

export interface ZipPlace {
  city: string;
  /** two-letter, lower-case */
  state: string;
}

export interface LeadContext {
  ip: string;
  userAgent: string;
  now: Date;
  privacyOptOut: boolean;
  zipLookup: (zip: string) => ZipPlace | undefined;
}

export const loanKindOf = (brand: Pick<Brand, 'apply'>): LoanKind => (brand.apply.path === TITLE_APPLY.path ? 'title' : 'general');

export async function recordLead(db: Store, brand: Brand, body: LeadBody, ctx: LeadContext): Promise<{ status: 200 | 201 | 202; id?: string; state?: string }> {
  if (body.website) return { status: 202 };
  if (!isConsentVersion(body.consent.version)) throw new ApiError(400, `Unknown consent version "${body.consent.version}"; reload the page and try again`);
  const age = ageOn(body.dateOfBirth, ctx.now);
  if (age === undefined) throw new ApiError(400, 'The body is not valid', [`/dateOfBirth: ${body.dateOfBirth} is not a date`]);
  if (age < MIN_AGE) throw new ApiError(422, `You must be ${MIN_AGE} or older to request a loan`);
  if (age > 120) throw new ApiError(400, 'The body is not valid', ['/dateOfBirth: check the year']);
  const place = ctx.zipLookup(body.zip);
  if (!place) throw new ApiError(422, `We could not find ZIP code ${body.zip}; check it and try again`);
  const state = stateByCode(place.state);
  if (!state) throw new ApiError(422, `ZIP code ${body.zip} is not in a US state we serve`);
  const kind = loanKindOf(brand);
  const unavailable = stateUnavailableReason(state, kind, brand.name);
  if (unavailable) throw new ApiError(422, unavailable);
  if (kind === 'title' && (!body.purpose || !body.vehicle)) {
    throw new ApiError(400, 'The body is not valid', [
      ...(body.purpose ? [] : ['/purpose: a title loan request needs its purpose']),
      ...(body.vehicle ? [] : ['/vehicle: a title loan request needs the vehicle']),
    ]);
  }
  const text = consentText(body.consent.version, brand.name);
  const { id, created } = await insertLead(
    db,
    {
      brand: brand.id,
      idempotency_key: body.idempotencyKey,
      created_at: ctx.now.toISOString(),
      loan_kind: kind,
      amount: body.amount,
      zip: body.zip,
      state: state.code,
      city: place.city,
      purpose: kind === 'title' ? (body.purpose ?? '') : '',
      vehicle: kind === 'title' && body.vehicle ? JSON.stringify(body.vehicle) : '',
      first_name: body.firstName.trim(),
      last_name: body.lastName.trim(),
      email: body.email.trim().toLowerCase(),
      phone: body.phone,
      income_source: body.incomeSource,
      pay_frequency: body.payFrequency,
      sealed: sealText(JSON.stringify({ dateOfBirth: body.dateOfBirth, monthlyIncome: body.monthlyIncome })),
      consent_version: body.consent.version,
      consent_text: text,
      consent_hash: createHash('sha256').update(text).digest('hex'),
      source: body.tracking.source,
      source2: body.tracking.source2 ?? '',
      click_id: body.tracking.clickId ?? '',
      session_uuid: body.tracking.uuid ?? '',
      visit_id: body.tracking.visitId ?? null,
      privacy_opt_out: ctx.privacyOptOut ? 1 : 0,
      ip: ctx.ip,
      user_agent: ctx.userAgent,
    },
    destinationsOf(brand.id).map((d) => d.name),
  );
  return { status: created ? 201 : 200, id, state: state.code };
}
