/**
 * How a brand shows the consent beside its application form's submit button, and the least it
 * accepts (brand document `consentText`): a size and colours the form renders the consent with,
 * and the rules — at least 12 px and a contrast of 4.5:1 (WCAG 2.1 AA for normal text), or a
 * brand's stricter ones. The validator refuses a brand whose consent breaks its rules
 * (brandChecks/semantic.ts, at the field's pointer); each lead's certificate records the size and
 * contrast the borrower's browser measured and checks them against the same rules
 * (engine/leads/certificate), so a buyer sees whether the consent was legible as shown.
 */
import type { Brand } from '../../schemas/brand.types';
import { contrastRatio } from '../browser/consentEvidence';
import { CONSENT_DISPLAY_RULES, type ConsentDisplayRules } from './consentRules';

export interface ConsentLook {
  fontSizePx: number;
  /** #rrggbb */
  color: string;
  background: string;
  rules: ConsentDisplayRules;
}

/** Tailwind's text-sm and slate-800 on the form's white: what the consent looked like before brands could set it. */
export const DEFAULT_CONSENT_LOOK = { fontSizePx: 14, color: '#1e293b', background: '#ffffff' } as const;

export function consentLookOf(brand: Pick<Brand, 'consentText'>): ConsentLook {
  const c = brand.consentText ?? {};
  return {
    fontSizePx: c.fontSizePx ?? DEFAULT_CONSENT_LOOK.fontSizePx,
    color: c.color ?? DEFAULT_CONSENT_LOOK.color,
    background: c.background ?? DEFAULT_CONSENT_LOOK.background,
    // a brand may be stricter than the defaults, never looser (the schema's minimums say so too)
    rules: {
      minFontPx: Math.max(CONSENT_DISPLAY_RULES.minFontPx, c.minFontPx ?? CONSENT_DISPLAY_RULES.minFontPx),
      minContrast: Math.max(CONSENT_DISPLAY_RULES.minContrast, c.minContrast ?? CONSENT_DISPLAY_RULES.minContrast),
    },
  };
}

const rgbOf = (hex: string): number[] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** The contrast ratio of the consent's colour on its background (1 to 21, two decimals). */
export const consentContrast = (look: Pick<ConsentLook, 'color' | 'background'>): number => contrastRatio(rgbOf(look.color), rgbOf(look.background));

/** Why the brand's consent would be too small or too faint for its rules: [JSON pointer, message] pairs, none when it is legible. */
export function consentLookProblems(brand: Brand): [pointer: string, message: string][] {
  const look = consentLookOf(brand);
  const out: [string, string][] = [];
  if (look.fontSizePx < look.rules.minFontPx)
    out.push([
      '/consentText/fontSizePx',
      `the consent is shown at ${look.fontSizePx}px, under the ${look.rules.minFontPx}px its rules ask for: a buyer cannot defend consent a borrower could not read; use ${look.rules.minFontPx} or more`,
    ]);
  const contrast = consentContrast(look);
  if (contrast < look.rules.minContrast)
    out.push([
      brand.consentText?.color !== undefined ? '/consentText/color' : '/consentText/background',
      `the consent's colour ${look.color} on ${look.background} has a contrast of ${contrast}:1, under the ${look.rules.minContrast}:1 its rules ask for; darken the text or lighten the background`,
    ]);
  return out;
}
