import type { AmountParam } from '../../schemas/brand.types';
import { originOf } from '../../engine/site/csp.mjs';
import { TITLE_APPLY } from '../../engine/browser/applyUrl';
import { consentText, CONSENT_VERSION_OF } from '../../engine/site/consent';
import { consentPartyOf, countryNotices, type CountryNotices } from '../../engine/site/countryText';
import { FORM_AMOUNT } from '../../engine/browser/formRules';
import { regionUnavailableReason, stateUnavailableReason, unavailableStateCodes } from '../../engine/geo/servedPlaces';
import { lendingView } from '../../engine/site/lending';
import { consentProviderOf } from '../../engine/site/consentProvider';
import { consentLookOf } from '../../engine/site/consentLook';
import type { LinkView } from '../../engine/site/model';
import { AU_STATES, CA_PROVINCES, type Country } from '../../engine/browser/regions';
import { STATES } from '../../engine/geo/states';
import type { BlockSpec } from '../../engine/site/blockSpec';

/** The application form's server-resolved data (blocks/applyForm). */
export interface ApplyFormData {
  /** the query key the amount arrives under (requested_amount or requestedamount) */
  amountParam: AmountParam;
  /** shown until the query or session storage says otherwise */
  defaultAmount: number;
  /** the consent shown next to the submit button: its version and exact text for this brand */
  consent: { version: string; text: string };
  /** the brand's country: which postal code, regions, phone format and consent wording */
  country: Country;
  /** Australia: the licence and responsible-lending statements beside the amount, the collection notice above the consent */
  notices: CountryNotices;
  /** states, provinces or territories this brand cannot take a request from (lower-case code), with the reason shown to the visitor */
  unavailableStates: { code: string; name: string; reason: string }[];
  /** the brand's telephone (and when it is answered), offered where the form cannot work (JavaScript off) */
  phone: { tel: string; text: string; hours?: string };
  /** the guide offered on the thank-you step */
  guide: LinkView;
  /** shown next to the amount: the block's own, else the brand's lending.representativeExample (engine/site/lending.ts) */
  representativeExample: string;
  /** with trace capture on: the server's public key (SPKI PEM) the form trace is sealed for */
  traceKey?: string;
  /** the brand's consent provider (engine/site/consentProvider.ts): its script, and the hidden field it fills with its certificate URL or token */
  consentProvider?: { kind: 'trustedform' | 'jornaya'; scriptUrl: string; field: string };
  /** how the consent is shown: the brand's size and colours (engine/site/consentLook.ts), checked by the validator */
  consentLook: { fontSizePx: number; color: string; background: string };
}

export const applyFormSpec: BlockSpec<'applyForm', ApplyFormData> = {
  isApplication: true,
  // A third-party form runs its provider's loader, which posts leads to the provider (to its leadUrl when set).
  thirdPartyOrigins: (block) => {
    if (block.provider !== 'script' || !block.script) return { scripts: [], connect: [] };
    const loader = originOf(block.script.src);
    const leads = block.script.leadUrl ? originOf(block.script.leadUrl) : undefined;
    return { scripts: loader ? [loader] : [], connect: [...(loader ? [loader] : []), ...(leads ? [leads] : [])] };
  },
  /** Consent text for the brand, the states it cannot serve, and the thank-you step's guide. */
  data: (block, { brand, vars, isPage, traceKey }) => {
    const kind = block.loanKind;
    const country = brand.country as Country;
    const unavailable = new Set(unavailableStateCodes(kind));
    const version = CONSENT_VERSION_OF[country];
    const guide = block.guideLinks?.find((l) => isPage(l.href)) ??
      brand.nav.items
        .flatMap((i) => (i.href ? [{ label: i.label, href: i.href }] : (i.children ?? [])))
        .find((l) => l.href.startsWith('/') && l.href !== brand.apply.path) ?? { label: `${brand.name} home`, href: '/' };
    // Read only for a form that captures its trace: a page without one needs no key.
    const key = block.traceCapture ? traceKey?.() : undefined;
    const provider = consentProviderOf(brand);
    const look = consentLookOf(brand);
    return {
      amountParam: brand.apply.amountParam,
      defaultAmount: FORM_AMOUNT.default,
      country,
      notices: countryNotices(brand, vars),
      phone: {
        tel: brand.organization.telephone.replace(/[^\d+]/g, ''),
        text: brand.organization.telephone,
        ...(brand.organization.openingHours ? { hours: brand.organization.openingHours } : {}),
      },
      consent: { version, text: consentText(version, consentPartyOf(brand)) },
      consentLook: { fontSizePx: look.fontSizePx, color: look.color, background: look.background },
      unavailableStates:
        country === 'US'
          ? STATES.filter((s) => unavailable.has(s.code)).map((s) => ({ code: s.code, name: s.name, reason: stateUnavailableReason(s, kind, brand.name)! }))
          : (country === 'CA' ? CA_PROVINCES : AU_STATES).flatMap((r) => {
              const reason = regionUnavailableReason(country, r, brand.name);
              return reason ? [{ code: r.code.toLowerCase(), name: r.name, reason }] : [];
            }),
      guide: { label: guide.label, href: guide.href },
      representativeExample: block.representativeExample ?? lendingView(brand, vars).representativeExample,
      ...(key !== undefined ? { traceKey: key } : {}),
      ...(provider ? { consentProvider: { kind: provider.kind, scriptUrl: provider.scriptUrl, field: provider.field } } : {}),
    };
  },
  // The form asks for what the server needs from this brand: purpose and vehicle when its apply
  // page is /apply-title-loans (engine/leads/record.ts loanKindOf), and what its country needs
  // (engine/site/brandChecks/countryForm.ts).
  check: (block, { brand, at, add }) => {
    if (block.provider === 'script') return;
    const formKind = brand.apply.path === TITLE_APPLY.path ? 'title' : 'general';
    if (block.loanKind !== formKind)
      add(
        `${at}/loanKind`,
        `brand "${brand.id}" takes ${formKind} loan requests (its apply page is ${brand.apply.path}), but this form asks for "${block.loanKind}"; use a layout whose form has "loanKind": "${formKind}"`,
      );
    // The rest of the country's fit is the brand's own (engine/site/brandChecks/countryForm.ts, run on every brand).
    if (block.loanKind === 'title' && brand.country !== 'US')
      add(`${at}/loanKind`, `title-loan requests are taken in the US only; brand "${brand.id}" is in ${brand.country}`);
  },
};
