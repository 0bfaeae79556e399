/**
 * How the consent must be shown to count: its text at least this large and this far from its
 * background (WCAG 2.1 AA's 4.5:1 for normal text) — the least any brand accepts; a brand may ask
 * for more (./consentLook.ts). The browser measures the consent as
 * rendered; the server checks the measurement here and writes the outcome into the certificate,
 * so a buyer sees at once whether the consent was legible as shown.
 */
export interface ConsentDisplayRules {
  minFontPx: number;
  minContrast: number;
}

export const CONSENT_DISPLAY_RULES: ConsentDisplayRules = { minFontPx: 12, minContrast: 4.5 };

export interface ConsentDisplay {
  fontSizePx: number;
  contrast: number;
}

/** Why the consent as rendered breaks the rules ([] when it keeps them, or was not measured). */
export function displayProblems(shown: ConsentDisplay | undefined, rules: ConsentDisplayRules = CONSENT_DISPLAY_RULES): string[] {
  if (!shown) return ['not measured'];
  return [
    ...(shown.fontSizePx < rules.minFontPx ? [`font size ${shown.fontSizePx}px is under ${rules.minFontPx}px`] : []),
    ...(shown.contrast < rules.minContrast ? [`contrast ${shown.contrast}:1 is under ${rules.minContrast}:1`] : []),
  ];
}
