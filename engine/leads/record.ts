/**
 * recordLead: a loan request from the embedded form, checked and stored before anything else
 * happens (SPEC §1). The body has passed schemas/api/lead.schema.json; here come the
 * rules a schema cannot say, each refusal a 4xx with the reason:
 * - the honeypot field filled → 202 and nothing stored (a bot learns nothing);
 * - a consent version we never showed → 400; the text of that version for this brand and its
 *   SHA-256 are stored with the lead, with time, IP and user agent;
 * - under 18 on the day → 422; a ZIP we do not know → 422; a state the brand cannot serve
 *   (SPEC §1, and the title brands' exclusions) → 422 and no lead (no connection to a lender);
 * - Canada and Australia: the province or state from the postal code itself (engine/browser/regions.ts),
 *   refused the same way where the brand cannot serve it; a body for another country's form,
 *   or a postal code, phone or consent wording of another country → 400;
 * - title brands need the purpose and the vehicle → 400.
 * Then one transaction stores the lead and its outbox rows; the same idempotency key again with
 * the same body is the same lead (200), never a second one; the same key with a different body is
 * a 409 that says so (the change would otherwise be dropped without a word) and names the lead
 * that was stored, as the 200 does: the key is the sending browser's own secret, and a browser
 * whose first answer was lost follows that lead from there. The body's hash is
 * kept inside the sealed fields, so it cannot be used to guess a date of birth.
 * The host the lead was posted on and its environment are stored with it; a test lead goes only
 * to destinations that accept test leads (engine/leads/environment.ts).
 */
import { dayIn } from '../geo/regionTimeZones';
import { createHash } from 'node:crypto';
import type { LeadRequest } from '../../schemas/api.types';
import type { Brand } from '../../schemas/brand.types';
import { TITLE_APPLY } from '../browser/applyUrl';
import { consentText, countryOfConsentVersion, isConsentVersion } from '../site/consent';
import { ApiError } from '../http/api';
import { stateByCode } from '../geo/states';
import type { Store } from '../store/db';
import { insertLead } from '../store/leads';
import { CURRENCY_OF, normalisePhoneFor, normalisePostalCode, regionOfPostalCode, unknownPostalCodeMessage, type Country } from '../browser/regions';
import { consentPartyOf } from '../site/countryText';
import { destinationsOf } from './destinations';
import { cleanEmail } from '../browser/formRules';
import { ageOn, regionUnavailableReason, stateUnavailableReason, type LoanKind } from '../geo/servedPlaces';
import { minAgeIn, tooYoungMessage } from '../browser/age';
import { destinationTakes, environmentOfHost, isTestLead } from './environment';
import { openText, sealText } from '../keys/sealing';
import { deviceClass } from '../store/trafficRules';
import { newCertificateId, pageLoadedAt } from './certificate/certificate';
import { servedPage } from './certificate/servedPage';
import { consentProviderOf, thirdPartyConsentProblem } from '../site/consentProvider';
import { consentLookOf } from '../site/consentLook';
import { certificateRowOf } from './certificate/issue';

/** The body of POST /api/leads, as its schema declares it (schemas/api/lead.schema.json → schemas/api.types.ts). */
export type LeadBody = LeadRequest;

export interface ZipPlace {
  city: string;
  /** two-letter, lower-case */
  state: string;
}

export interface LeadContext {
  /** the normalised host the request was for */
  host: string;
  /**
   * The origin the site was reached at (engine/http/api.ts originOfRequest): the certificate's page
   * URL and the lead's are built on it; https://<host> when not given.
   */
  origin?: string;
  ip: string;
  userAgent: string;
  now: Date;
  privacyOptOut: boolean;
  zipLookup: (zip: string) => ZipPlace | undefined;
  /**
   * The keyed hashes the sale matches duplicates and opt-outs on (engine/sale/contact.ts), recorded
   * with the lead: a later request with the contact is the duplicate even when its sale runs first
   * (this lead still being screened, or taken up after a restart).
   */
  contactHashes?: (contact: { phone: string; email: string }) => string[];
}

/** A hash of the request's body, the same for the same fields in any order. */
export function requestHash(body: LeadBody): string {
  const canonical = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
        )
      : v;
  // the browser's measurements differ on a resend of the same request; they are not what was asked
  return createHash('sha256')
    .update(JSON.stringify(canonical({ ...body, evidence: undefined })))
    .digest('hex');
}

/** What is sealed with a lead: the sensitive fields, and the request's hash. */
interface SealedFields {
  dateOfBirth: string;
  monthlyIncome: number;
  requestHash?: string;
}

export const loanKindOf = (brand: Pick<Brand, 'apply'>): LoanKind => (brand.apply.path === TITLE_APPLY.path ? 'title' : 'general');

/**
 * What became of a request: 201 stored now, 200 stored before with the same body, 202 the honeypot
 * (nothing stored), 409 stored before with another body (`id` is that first lead, kept as it was;
 * `error` says so).
 */
export type RecordedLead =
  | { status: 200 | 201; id: string; state: string; certificateId?: string }
  | { status: 202; id?: undefined; state?: undefined; certificateId?: undefined }
  | { status: 409; id: string; error: string; state?: undefined; certificateId?: string };

export async function recordLead(db: Store, brand: Brand, body: LeadBody, ctx: LeadContext): Promise<RecordedLead> {
  if (body.website) return { status: 202 };
  if (!isConsentVersion(body.consent.version)) throw new ApiError(400, `Unknown consent version "${body.consent.version}"; reload the page and try again`);
  const age = ageOn(body.dateOfBirth, ctx.now);
  if (age === undefined) throw new ApiError(400, 'The body is not valid', [`/dateOfBirth: ${body.dateOfBirth} is not a date`]);
  if (age > 120) throw new ApiError(400, 'The body is not valid', ['/dateOfBirth: check the year']);
  const country = brand.country as Country;
  const invalid = (problem: string) => new ApiError(400, 'The body is not valid', [problem]);
  if (body.country && body.country !== country) throw invalid(`/country: ${brand.name} takes requests from ${country} only; reload the page and try again`);
  if (countryOfConsentVersion(body.consent.version) !== country)
    throw invalid(`/consent/version: "${body.consent.version}" is not the wording shown in ${country}`);
  if (normalisePostalCode(body.zip, country) !== body.zip) throw invalid(`/zip: ${body.zip} is not a postal code of ${country}`);
  if (!normalisePhoneFor(body.phone, country)) throw invalid(`/phone: ${body.phone} is not a phone number of ${country}`);
  const where = locate(brand, body.zip, ctx);
  const place = { city: where.city, state: where.region.toLowerCase() };
  // of age (18, or the age of majority where it is higher: 19 in some provinces and states, 21 in Mississippi) on the day where the borrower lives, not in UTC; a day still to come there is a typo (the year), not a child: said so, as the form does
  const ageThere = ageOn(body.dateOfBirth, dayIn(ctx.now, country, where.region)) ?? 0;
  if (ageThere < 0) throw invalid(`/dateOfBirth: ${body.dateOfBirth} is a day still to come`);
  const minAge = minAgeIn(country, where.region);
  if (ageThere < minAge) throw new ApiError(422, tooYoungMessage(minAge, where.regionName));
  const kind = loanKindOf(brand);
  if (country === 'US') {
    const unavailable = stateUnavailableReason(stateByCode(place.state)!, kind, brand.name);
    if (unavailable) throw new ApiError(422, unavailable);
  }
  // the newest model year is next year's, as the form says (the schema's bound is a fixed year)
  const newestYear = ctx.now.getUTCFullYear() + 1;
  if (body.vehicle && body.vehicle.year > newestYear) throw invalid(`/vehicle/year: from 1980 to ${newestYear}`);
  const outOfOrder = timelineProblem(body.evidence);
  if (outOfOrder) throw invalid(outOfOrder);
  if (kind === 'title' && (!body.purpose || !body.vehicle)) {
    throw new ApiError(400, 'The body is not valid', [
      ...(body.purpose ? [] : ['/purpose: a title loan request needs its purpose']),
      ...(body.vehicle ? [] : ['/vehicle: a title loan request needs the vehicle']),
    ]);
  }
  const text = consentText(body.consent.version, consentPartyOf(brand));
  const environment = environmentOfHost(ctx.host);
  const siteOrigin = ctx.origin || `https://${ctx.host}`;
  const hash = requestHash(body);
  const certificateId = newCertificateId();
  const thirdParty = thirdPartyConsentOf(brand, body.thirdPartyConsent);
  // the form page the borrower submitted from: its URL and its HTML as served go in the certificate
  const pagePath = body.evidence?.page ?? brand.apply.path;
  const sealed: SealedFields = { dateOfBirth: body.dateOfBirth, monthlyIncome: body.monthlyIncome, requestHash: hash };
  const email = cleanEmail(body.email);
  const {
    id,
    created,
    sealed: stored,
    certificateId: storedCertificateId,
  } = await insertLead(
    db,
    {
      brand: brand.id,
      idempotency_key: body.idempotencyKey,
      created_at: ctx.now.toISOString(),
      loan_kind: kind,
      amount: body.amount,
      zip: body.zip,
      state: place.state,
      city: place.city,
      country,
      region: where.region,
      currency: CURRENCY_OF[country],
      purpose: kind === 'title' ? (body.purpose ?? '') : '',
      vehicle: kind === 'title' && body.vehicle ? JSON.stringify(body.vehicle) : '',
      first_name: body.firstName.trim(),
      last_name: body.lastName.trim(),
      // as the inbox it names: an invisible character pasted in would reach the buyer, and miss the borrower's opt-out
      email,
      phone: body.phone,
      income_source: body.incomeSource,
      pay_frequency: body.payFrequency,
      sealed: sealText(JSON.stringify(sealed)),
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
      device: deviceClass(ctx.userAgent),
      host: ctx.host,
      site_origin: siteOrigin,
      environment,
      certificate_id: certificateId,
      consent_provider: thirdParty?.kind ?? '',
      consent_provider_id: thirdParty?.value ?? '',
    },
    destinationsOf(brand.id)
      .filter((d) => destinationTakes(d, { environment }))
      .map((d) => d.name),
    // the consent certificate is stored with the lead: one commit, never a lead without its evidence
    (leadId) =>
      certificateRowOf({
        served: servedPage(brand.id, pagePath, pageLoadedAt(ctx.now, body.evidence)),
        consentRules: consentLookOf(brand).rules,
        id: certificateId,
        leadId,
        test: isTestLead({ environment }),
        brand: { id: brand.id, name: brand.name, ...(brand.organization.legalName ? { legalName: brand.organization.legalName } : {}) },
        consent: { version: body.consent.version, text },
        pageUrl: `${siteOrigin}${pagePath}`,
        receivedAt: ctx.now,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        evidence: body.evidence,
      }),
    ctx.contactHashes?.({ phone: body.phone, email }),
  );
  const previous = !created && stored !== undefined ? storedHash(stored) : undefined;
  if (previous !== undefined && previous !== hash) {
    return {
      status: 409,
      id,
      error: `This idempotency key was already used for a different request (lead ${id}); nothing was changed. Send a changed request with a new idempotency key.`,
      certificateId: storedCertificateId || undefined,
    };
  }
  return { status: created ? 201 : 200, id, state: place.state, certificateId: created ? certificateId : storedCertificateId || undefined };
}

/**
 * The brand's consent provider's certificate as the form sent it, checked against the provider: a
 * value that is not one the provider gives is a 422 (its script writes it; a changed one is not
 * evidence). A brand without a provider keeps nothing of it; a missing one is stored as none.
 */
function thirdPartyConsentOf(brand: Brand, value: string | undefined): { kind: string; value: string } | undefined {
  const provider = consentProviderOf(brand);
  if (!provider) return undefined;
  if (!value) return { kind: provider.kind, value: '' };
  const problem = thirdPartyConsentProblem(provider.kind, value);
  if (problem) throw new ApiError(422, problem);
  return { kind: provider.kind, value };
}

/** The request hash sealed with a stored lead (undefined for leads stored before it was kept, or sealed with a key no longer configured). */
function storedHash(sealed: string): string | undefined {
  try {
    return (JSON.parse(openText(sealed)) as SealedFields).requestHash;
  } catch {
    return undefined;
  }
}

/** The postal code's city (US only) and region (upper-case code, and its name as pages show it); a 422 when it is unknown or not served. */
function locate(brand: Brand, zip: string, ctx: LeadContext): { city: string; region: string; regionName: string } {
  const country = brand.country as Country;
  if (country === 'US') {
    const place = ctx.zipLookup(zip);
    if (!place) throw new ApiError(422, unknownPostalCodeMessage(zip, country));
    const state = stateByCode(place.state);
    if (!state) throw new ApiError(422, `ZIP code ${zip} is not in a US state we serve`);
    return { city: place.city, region: state.code.toUpperCase(), regionName: state.name };
  }
  const region = regionOfPostalCode(zip, country);
  if (!region) throw new ApiError(422, unknownPostalCodeMessage(zip, country));
  const unavailable = regionUnavailableReason(country, region, brand.name);
  if (unavailable) throw new ApiError(422, unavailable);
  return { city: '', region: region.code, regionName: region.name };
}

/**
 * The consent certificate signs the form's timeline as the browser measured it (one clock, from
 * the page's load): a step is left after it is shown, the next shown once the one before it was
 * left, and all before the submit. A body whose times cannot have happened is refused, not
 * signed; the form always sends them in order (engine/browser/consentEvidence.ts).
 */
export function timelineProblem(evidence: LeadBody['evidence']): string | undefined {
  if (!evidence) return undefined;
  let left = 0;
  for (const [i, s] of evidence.steps.entries()) {
    if (s.shownMs < left) return `/evidence/steps/${i}/shownMs: shown before the step before it was left`;
    if (s.doneMs < s.shownMs) return `/evidence/steps/${i}/doneMs: left before it was shown`;
    if (s.doneMs > evidence.submitMs) return `/evidence/steps/${i}/doneMs: left after the form was submitted`;
    left = s.doneMs;
  }
  return undefined;
}
