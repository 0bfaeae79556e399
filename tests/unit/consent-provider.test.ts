/**
 * TrustedForm and Jornaya LeadiD per brand (engine/site/consentProvider.ts), for the fixture
 * brands of tests/fixtures/quality-brands and the real ones: the Content-Security-Policy
 * the front door gives allows the provider's script only on that brand's apply page (a stand-in's
 * origin when the URL is pointed at one); the lead route keeps a well-formed certificate URL or token, refuses a forged one with a 422 and
 * keeps nothing for a brand without a provider; the ping and the post carry it to buyers; a lead
 * without it on a brand that runs one is screened with consent-provider-missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { consoleHostsOf, decide, type Door } from '../../engine/frontDoor/frontDoor';
import { recordLead, type LeadBody } from '../../engine/leads/record';
import { screenStoredLead } from '../../engine/leads/screening/run';
import { saleLeadOf } from '../../engine/sale/lead';
import { pingPayload } from '../../engine/sale/ping';
import { leadPayload } from '../../engine/sale/wire';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { contentSecurityPolicy } from '../../engine/site/csp.mjs';
import { leadById } from '../../engine/store/leads';
import { ApiError } from '../../engine/http/api';
import { migratedStore } from '../support/bothStores';
import { leadRequest } from '../support/leadRequest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.LEADS_ENCRYPTION_KEY = 'b'.repeat(64);
const { brands, layouts } = readSources({ extraDir: 'tests/fixtures/quality-brands' });
const catalog = buildCatalog(brands, layouts, BLOCK_SPECS);
const STAND_IN = { TRUSTEDFORM_SCRIPT_URL: 'http://127.0.0.1:4511/trustedform.js', TRUSTEDFORM_CERT_ORIGIN: 'http://127.0.0.1:4511' };
const doorWith = (env: Record<string, string>): Door => ({
  catalog,
  previewModeId: 'p'.repeat(32),
  consoleHosts: consoleHostsOf({}),
  trustForwardedHost: false,
  production: true,
  env,
});
const cspOf = (host: string, path: string, env: Record<string, string> = {}) => {
  const d = decide({ method: 'GET', target: path, host }, doorWith(env));
  if (d.kind !== 'page') throw new Error(`${host}${path} is not a page: ${d.kind}`);
  return contentSecurityPolicy(d.policy, []);
};
const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';

describe('the Content-Security-Policy of a brand with a consent provider', () => {
  it("allows TrustedForm's script and hosts on that brand's apply page only", () => {
    const apply = cspOf('acmetrusted.localhost', '/apply');
    expect(directive(apply, 'script-src')).toContain('https://api.trustedform.com');
    expect(directive(apply, 'connect-src')).toContain('https://api.trustedform.com');
    expect(directive(apply, 'connect-src')).toContain('https://cert.trustedform.com');
    expect(apply).not.toContain('lidstatic');
    expect(cspOf('acmetrusted.localhost', '/')).not.toContain('trustedform');
    expect(cspOf('ipaydayloans.localhost', '/apply')).not.toContain('trustedform');
  });

  it("allows Jornaya's script and hosts on that brand's apply page only", () => {
    const apply = cspOf('acmejornaya.localhost', '/apply');
    expect(directive(apply, 'script-src')).toContain('https://create.lidstatic.com');
    expect(directive(apply, 'connect-src')).toContain('https://*.leadid.com');
    expect(apply).not.toContain('trustedform');
    expect(cspOf('acmejornaya.localhost', '/')).not.toContain('lidstatic');
  });

  it("allows a stand-in's origin instead of the provider's when the script is pointed at one", () => {
    const apply = cspOf('acmetrusted.localhost', '/apply', STAND_IN);
    expect(directive(apply, 'script-src')).toContain('http://127.0.0.1:4511');
    expect(apply).not.toContain('https://api.trustedform.com');
  });
});

describe('the form and the lead', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loansites-consent-provider-'));
  const db = migratedStore(() => ({ url: '', file: join(dir, 'leads.sqlite') }));
  const saved = { ...process.env };
  beforeAll(() => Object.assign(process.env, STAND_IN));
  afterAll(() => {
    process.env = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  const brand = (id: string) => catalog.brands.get(id)!.brand;
  const body = (thirdPartyConsent?: string): LeadBody =>
    leadRequest(thirdPartyConsent ? { amount: 800, thirdPartyConsent } : { amount: 800 }) as unknown as LeadBody;
  const ctx = (host: string) => ({
    host,
    ip: '203.0.113.0',
    userAgent: 'test-agent/1.0',
    now: new Date(),
    privacyOptOut: false,
    zipLookup: () => ({ city: 'Austin', state: 'tx' }),
  });
  const store = async (brandId: string, value?: string) => {
    const r = await recordLead(db(), brand(brandId), body(value), ctx(`${brandId}.localhost`));
    return (await leadById(db(), r.id!))!;
  };

  it('keeps a TrustedForm certificate URL and gives it to buyers in the ping and the post', async () => {
    const url = `http://127.0.0.1:4511/${'0a'.repeat(20)}`;
    const lead = await store('acmetrusted', url);
    expect(lead).toMatchObject({ consent_provider: 'trustedform', consent_provider_id: url });
    expect(pingPayload(saleLeadOf(lead), 'pg_abcdefghijklmnop')).toMatchObject({ trustedFormCertUrl: url });
    expect(leadPayload(lead)).toMatchObject({ trustedFormCertUrl: url });
  });

  it('keeps a Jornaya LeadiD token and gives it to buyers in the ping and the post', async () => {
    const token = '0F8FAD5B-D9CB-469F-A165-70867728950E';
    const lead = await store('acmejornaya', token);
    expect(pingPayload(saleLeadOf(lead), 'pg_abcdefghijklmnop')).toMatchObject({ jornayaLeadId: token });
    expect(leadPayload(lead)).toMatchObject({ jornayaLeadId: token });
    expect(leadPayload(lead)).not.toHaveProperty('trustedFormCertUrl');
  });

  it.each([
    ['acmetrusted', 'https://evil.example/0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a', /TrustedForm certificate URL must be http:\/\/127\.0\.0\.1:4511\//],
    ['acmetrusted', 'http://127.0.0.1:4511/not-an-id', /TrustedForm certificate URL/],
    ['acmejornaya', 'not-a-token', /Jornaya LeadiD token must be 36 characters/],
  ])('refuses a forged certificate for %s (%s) with a 422 and stores nothing', async (brandId, value, reason) => {
    const err = await recordLead(db(), brand(brandId), body(value), ctx(`${brandId}.localhost`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, message: expect.stringMatching(reason) });
  });

  it('screens a lead that came without its provider certificate with consent-provider-missing; with one, or on a brand without a provider, not', async () => {
    const screenOf = async (brandId: string, value?: string) => {
      const b = body(value);
      const r = await recordLead(db(), brand(brandId), b, ctx(`${brandId}.localhost`));
      return screenStoredLead(db(), brand(brandId), b, { leadId: r.id!, ip: `198.51.100.${++ip}`, region: 'TX', loanKind: 'general', now: new Date() });
    };
    let ip = 0;
    const missing = await screenOf('acmetrusted');
    expect(missing.codes).toContain('consent-provider-missing');
    expect((await screenOf('acmetrusted', `http://127.0.0.1:4511/${'0b'.repeat(20)}`)).codes).not.toContain('consent-provider-missing');
    expect((await screenOf('acmeopen')).codes).not.toContain('consent-provider-missing');
  });

  it('stores none when the script gave nothing, and keeps nothing for a brand without a provider', async () => {
    expect(await store('acmetrusted')).toMatchObject({ consent_provider: 'trustedform', consent_provider_id: '' });
    const plain = await store('ipaydayloans', `http://127.0.0.1:4511/${'0a'.repeat(20)}`);
    expect(plain).toMatchObject({ consent_provider: '', consent_provider_id: '' });
    expect(pingPayload(saleLeadOf(plain), 'pg_abcdefghijklmnop')).not.toHaveProperty('trustedFormCertUrl');
  });
});
