/**
 * The consent's size and contrast, per brand (brand document `consentText`,
 * engine/site/consentLook.ts): the validator refuses a brand whose consent would be too small or
 * too faint for its rules — at the field's pointer, as `npm run validate` prints it — and accepts
 * one that is legible, stricter rules included;
 * the certificate checks what the borrower's browser measured against the brand's own rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { buildCertificate, newCertificateId } from '../../engine/leads/certificate/certificate';
import { buildCatalog } from '../../engine/site/catalog';
import { consentContrast, consentLookOf } from '../../engine/site/consentLook';

const base = readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8');
const FILE = 'brands/acme.json';
const withConsent = (consentText: object) => {
  const doc = JSON.parse(base) as Record<string, unknown>;
  return JSON.stringify({ ...doc, consentText }, null, 2);
};
const problemsOf = (text: string) => buildCatalog([{ file: FILE, text }], [], BLOCK_SPECS).problems;
/** "brands/acme.json:12:3 /pointer: message" → "/pointer: message" */
const pointed = (problems: string[]) => problems.map((p) => p.replace(/^\S+ /, ''));

describe('the validator and the consent’s look', () => {
  it('refuses a consent smaller than the rules, at its size', () => {
    expect(pointed(problemsOf(withConsent({ fontSizePx: 10 })))).toEqual([
      '/consentText/fontSizePx: the consent is shown at 10px, under the 12px its rules ask for: a buyer cannot defend consent a borrower could not read; use 12 or more',
    ]);
  });

  it('refuses a consent too faint for the rules, at its colour', () => {
    expect(pointed(problemsOf(withConsent({ color: '#aaaaaa' })))).toEqual([
      "/consentText/color: the consent's colour #aaaaaa on #ffffff has a contrast of 2.32:1, under the 4.5:1 its rules ask for; darken the text or lighten the background",
    ]);
  });

  it('holds a brand to its own stricter rules, and points at the background when that is what the brand changed', () => {
    expect(pointed(problemsOf(withConsent({ minFontPx: 16 })))).toEqual([
      '/consentText/fontSizePx: the consent is shown at 14px, under the 16px its rules ask for: a buyer cannot defend consent a borrower could not read; use 16 or more',
    ]);
    expect(pointed(problemsOf(withConsent({ background: '#64748b' })))[0]).toMatch(/^\/consentText\/background: .* under the 4\.5:1/);
  });

  it('refuses rules looser than the least any brand accepts', () => {
    expect(pointed(problemsOf(withConsent({ minFontPx: 10, minContrast: 3 })))).toEqual([
      '/consentText/minFontPx: must be at least 12',
      '/consentText/minContrast: must be at least 4.5',
    ]);
  });

  it('accepts the defaults and a legible brand look, strict rules included', () => {
    expect(problemsOf(base)).toEqual([]);
    expect(problemsOf(withConsent({ fontSizePx: 16, color: '#111111', background: '#fafafa', minFontPx: 14, minContrast: 7 }))).toEqual([]);
    expect(consentContrast(consentLookOf({}))).toBeGreaterThan(14);
  });
});

describe("the certificate checks the measured consent against the brand's rules", () => {
  const facts = (rules?: { minFontPx: number; minContrast: number }) => ({
    id: newCertificateId(),
    leadId: 'ld_look',
    test: false,
    brand: { id: 'acme', name: 'Acme' },
    ...(rules ? { consentRules: rules } : {}),
    consent: { version: 'v1', text: 'I agree' },
    pageUrl: 'https://acme.example/apply',
    receivedAt: new Date('2026-11-28T12:00:00Z'),
    ip: '203.0.113.0',
    userAgent: 'ua',
    evidence: { steps: [], submitMs: 30_000, fields: {}, consent: { fontSizePx: 14, contrast: 6.1 } },
  });

  it('meets the default rules, and fails a brand that asks for 16 px and 7:1, naming both', () => {
    expect(buildCertificate(facts()).consent.display).toMatchObject({ minFontPx: 12, minContrast: 4.5, meetsRules: true, problems: [] });
    expect(buildCertificate(facts({ minFontPx: 16, minContrast: 7 })).consent.display).toEqual({
      fontSizePx: 14,
      contrast: 6.1,
      minFontPx: 16,
      minContrast: 7,
      meetsRules: false,
      problems: ['font size 14px is under 16px', 'contrast 6.1:1 is under 7:1'],
    });
  });
});
