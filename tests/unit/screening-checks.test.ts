/**
 * Screening's checks, one table each, and the score and routing rules: what an operator and a
 * buyer see of a lead (its reason codes, its score band, whether it is offered) for realistic
 * phones, emails, request rates, form timings and facts.
 */
import { describe, expect, it } from 'vitest';
import { suggestEmail } from '../../engine/browser/emailTypo';
import { signalCollector, type FormSignals } from '../../engine/browser/formSignals';
import { botReasons } from '../../engine/leads/screening/bot';
import { consistencyReasons, type ConsistencyFacts } from '../../engine/leads/screening/consistency';
import { emailReasons } from '../../engine/leads/screening/email';
import { screen, screeningSettings } from '../../engine/leads/screening';
import { phoneReasons } from '../../engine/leads/screening/phone';
import { scoreFindings } from '../../engine/leads/screening/score';
import { httpScrub } from '../../engine/leads/screening/httpScrub';
import { runScrubs } from '../../engine/leads/screening/scrubs';
import { networkOf, velocityReasons, type VelocityCounts } from '../../engine/leads/screening/velocity';
import type { Country } from '../../engine/browser/regions';
import { startScrubService } from '../support/scrubService';

describe('the phone check', () => {
  it.each<[string, Country, string[]]>([
    ['5125550123', 'US', []],
    ['(213) 555-0147', 'US', []],
    ['8005551234', 'US', ['phone-toll-free']],
    ['8885550100', 'US', ['phone-toll-free']],
    ['9005551234', 'US', ['phone-premium']],
    ['1234567890', 'US', ['phone-invalid']],
    ['5555555555', 'US', ['phone-invalid']],
    ['4165550187', 'CA', []],
    ['6045550199', 'CA', []],
    ['8665550100', 'CA', ['phone-toll-free']],
    ['0412345678', 'AU', []],
    ['+61 412 345 678', 'AU', []],
    ['0298765432', 'AU', ['phone-landline']],
    ['1800123456', 'AU', ['phone-toll-free']],
    ['1300123456', 'AU', ['phone-toll-free']],
    ['1900123456', 'AU', ['phone-premium']],
    ['0412', 'AU', ['phone-invalid']],
  ])('%s in %s → %j', (phone, country, codes) => {
    expect(phoneReasons(phone, country)).toEqual(codes);
  });
});

describe('the email check', () => {
  it.each<[string, string[]]>([
    ['ana@gmail.com', []],
    ['ana.garcia@example.org', []],
    ['ana@mailinator.com', ['email-disposable']],
    ['ana@guerrillamail.com', ['email-disposable']],
    ['ana@sub.mailinator.com', ['email-disposable']],
    ['ana@gmial.com', ['email-typo']],
    ['ana@yaho.com', ['email-typo']],
    ['ana@hotmial.com', ['email-typo']],
    ['ana@outlok.com', ['email-typo']],
    ['ana@gmail', ['email-syntax']],
    ['ana gmail.com', ['email-syntax']],
    ['a@@b.com', ['email-syntax']],
  ])('%s → %j', (email, codes) => {
    expect(emailReasons(email)).toEqual(codes);
  });

  it.each<[string, string | undefined]>([
    ['ana@gmial.com', 'ana@gmail.com'],
    ['ana@gmai.com', 'ana@gmail.com'],
    ['Ana.G@yahooo.com', 'Ana.G@yahoo.com'],
    ['ana@icloud.con', 'ana@icloud.com'],
    ['ana@gmail.com', undefined],
    ['ana@example.org', undefined],
    ['ana', undefined],
  ])('the form offers %s back as %s', (typed, meant) => {
    expect(suggestEmail(typed)).toBe(meant);
  });
});

const counts = (over: Partial<VelocityCounts> = {}): VelocityCounts => ({
  phone: { hour: 0, day: 0 },
  email: { hour: 0, day: 0 },
  ip: { hour: 0, day: 0 },
  device: { hour: 0, day: 0 },
  ...over,
});

describe('the velocity check', () => {
  it.each<[string, Partial<VelocityCounts>, string[]]>([
    ['a first request', {}, []],
    ['the same phone earlier this hour', { phone: { hour: 1, day: 1 } }, ['velocity-1h']],
    ['the same email three times today, none this hour', { email: { hour: 0, day: 3 } }, ['velocity-24h']],
    ['the same email twice today', { email: { hour: 0, day: 2 } }, []],
    ['a shared network: two earlier this hour', { ip: { hour: 2, day: 2 } }, []],
    ['a network with three earlier this hour', { ip: { hour: 3, day: 3 } }, ['velocity-1h']],
    ['a network with ten today', { ip: { hour: 0, day: 10 } }, ['velocity-24h']],
    ['a device with two this hour', { device: { hour: 2, day: 2 } }, ['velocity-1h']],
  ])('%s → %j', (_, over, codes) => {
    expect(velocityReasons(counts(over))).toEqual(codes);
  });

  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2'],
    ['2001:db8:1:2::9', '2001:db8:1:2'],
    ['2001:0db8:0001:0002:aaaa::1', '2001:db8:1:2'],
    ['2001:db8::1', '2001:db8:0:0'],
    ['127.0.0.1', ''],
    ['::ffff:127.0.0.1', ''],
    ['::1', ''],
  ])('the network of %s is "%s" (IPv6 by its /64; loopback, this machine, not compared)', (ip, net) => {
    expect(networkOf(ip)).toBe(net);
  });
});

const human: FormSignals = { stepMs: [9000, 25000, 31000], pointerEvents: 14, keyEvents: 120, pastedFields: 1, filledFields: 12, webdriver: false };

describe('the bot check', () => {
  it.each<[string, Partial<FormSignals>, boolean, string[]]>([
    ['a person', {}, false, []],
    ['step 1 in half a second', { stepMs: [500, 25000, 31000] }, false, ['bot-fast']],
    ['step 3 in a second', { stepMs: [9000, 25000, 1000] }, false, ['bot-fast']],
    ['a quick autofill of step 2 is still a person', { stepMs: [9000, 1200, 31000] }, false, []],
    ['no pointer and no key at all', { pointerEvents: 0, keyEvents: 0 }, false, ['bot-no-input-events']],
    ['keys only (a keyboard user)', { pointerEvents: 0 }, false, []],
    ['every field pasted', { pastedFields: 12 }, false, ['bot-paste-all']],
    ['a browser driven by automation', { webdriver: true }, false, ['bot-webdriver']],
    ['the trap field filled', {}, true, ['bot-trap-field']],
  ])('%s → %j', (_, over, trap, codes) => {
    expect(botReasons({ ...human, ...over }, trap)).toEqual(codes);
  });

  it('cannot judge a request without signals (a form provider’s script)', () => {
    expect(botReasons(undefined, false)).toBeUndefined();
  });

  it('the browser collector counts durations, events and pastes, never values', () => {
    let t = 0;
    const c = signalCollector(
      () => t,
      () => true,
    );
    c.stepShown(0);
    t = 4000;
    c.onPointer();
    c.onKey();
    c.onKey();
    c.onPaste('email');
    c.onInput('email', 'insertText');
    c.onInput('phone', 'insertFromPaste');
    c.onInput('firstName', 'insertText');
    c.stepLeft();
    c.stepShown(1);
    t = 6500;
    c.stepLeft();
    expect(c.read()).toEqual({ stepMs: [4000, 2500], pointerEvents: 1, keyEvents: 2, pastedFields: 2, filledFields: 3, webdriver: true });
  });
});

const facts = (over: Partial<ConsistencyFacts> = {}): ConsistencyFacts => ({
  country: 'US',
  region: 'TX',
  zip: '78701',
  age: 30,
  amount: 800,
  loanKind: 'general',
  ...over,
});

describe('the consistency check', () => {
  it.each<[string, Partial<ConsistencyFacts>, string[]]>([
    ['an ordinary request', {}, []],
    ['a Texas state for a New York ZIP', { zip: '10001' }, ['zip-state']],
    ['a California ZIP in California', { zip: '90210', region: 'CA' }, []],
    ['18 in British Columbia (majority 19)', { country: 'CA', region: 'BC', zip: 'V6B 1A1', age: 18 }, ['age-rule']],
    ['18 in Ontario', { country: 'CA', region: 'ON', zip: 'M5V 2T6', age: 18 }, []],
    ['20 in Mississippi (majority 21)', { region: 'MS', zip: '39201', age: 20 }, ['age-rule']],
    ['21 in Mississippi', { region: 'MS', zip: '39201', age: 21 }, []],
    ['18 in Alabama (majority 19)', { region: 'AL', zip: '35203', age: 18 }, ['age-rule']],
    ['aged 104 (a year typed wrong)', { age: 104 }, ['age-rule']],
    ['$6,000 on a payday brand', { amount: 6000 }, ['amount-range']],
    ['$6,000 on a title brand', { amount: 6000, loanKind: 'title' }, []],
    ['$800 where the brand lends from $1,000', { amountRange: { min: 1000 } }, ['amount-range']],
  ])('%s → %j', (_, over, codes) => {
    expect(consistencyReasons(facts(over))).toEqual(codes);
  });
});

describe('outside scrubs', () => {
  const q = { phone: '5125550123', email: 'ana@example.org', country: 'US' };
  it('report their codes, clear when none, and "could not run" when one fails or is late', async () => {
    const litigators = { name: 'litigators', check: async (x: typeof q) => (x.phone === '5125550123' ? (['scrub-litigator'] as const).slice() : []) };
    expect(await runScrubs([litigators], q)).toEqual(['scrub-litigator']);
    expect(await runScrubs([litigators], { ...q, phone: '2135550147' })).toEqual([]);
    const down = { name: 'dnc', check: async () => Promise.reject(new Error('503')) };
    expect(await runScrubs([litigators, down], q)).toBeUndefined();
    const late = { name: 'dnc', check: () => new Promise<never>(() => {}) };
    expect(await runScrubs([late], q, 20)).toBeUndefined();
  });

  it('an answer that came in time while this process was busy (a long render, a collection) still counts', async () => {
    const service = await startScrubService();
    try {
      service.listed.set(q.phone, ['scrub-dnc']);
      const pending = runScrubs([httpScrub(service.url)], q, 200);
      const until = Date.now() + 450;
      while (Date.now() < until); // the event loop is held past the timeout right after the scrub is asked
      expect(await pending).toEqual(['scrub-dnc']);
      expect(service.requests).toHaveLength(1);
    } finally {
      await service.close();
    }
  });

  it('a service that never answers is still given up on after a busy spell: one more timeout at most', async () => {
    const service = await startScrubService();
    try {
      service.delayMs = 60_000;
      const started = Date.now();
      const pending = runScrubs([httpScrub(service.url)], q, 200);
      const until = Date.now() + 450;
      while (Date.now() < until);
      expect(await pending).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await service.close();
    }
  });
});

describe('the score and what happens to the lead', () => {
  const defaults = screeningSettings({});
  const input = { phone: '5125550123', email: 'ana@gmail.com', signals: human, trapFilled: false, velocity: counts(), scrubs: [], ...facts() };

  it('a clean request scores 100 and is offered', () => {
    expect(screen(input, defaults)).toEqual({ score: 100, band: 'high', codes: [], routing: 'offer' });
  });

  it('a scripted instant fill that pastes everything scores low and is held back (the default)', () => {
    const bot = { ...input, signals: { stepMs: [300, 400, 350], pointerEvents: 0, keyEvents: 0, pastedFields: 12, filledFields: 12, webdriver: true } };
    expect(screen(bot, defaults)).toEqual({
      score: 20,
      band: 'low',
      codes: ['bot-fast', 'bot-no-input-events', 'bot-paste-all', 'bot-webdriver'],
      routing: 'hold',
    });
  });

  it.each<[string, object, string]>([
    ['refuse', { belowThreshold: 'refuse' }, 'refuse'],
    ['hold', { belowThreshold: 'hold' }, 'hold'],
    ['offer only to buyers that take them', { belowThreshold: 'offer' }, 'low-quality-buyers'],
  ])('under the threshold the brand may %s', (_, screening, routing) => {
    const s = screeningSettings({ screening: { threshold: 90, ...screening } });
    expect(scoreFindings({ email: ['email-typo', 'email-typo'] }, s)).toEqual({ score: 90 - 0, band: 'high', codes: ['email-typo'], routing: 'offer' });
    expect(scoreFindings({ email: ['email-disposable'] }, s)).toMatchObject({ score: 70, band: 'medium', routing });
  });

  it('a check set to refuse refuses on any finding; off is not counted', () => {
    const s = screeningSettings({ screening: { checks: { phone: { action: 'refuse' }, email: { action: 'off' } } } });
    expect(scoreFindings({ phone: ['phone-landline'], email: ['email-disposable'] }, s)).toEqual({
      score: 90,
      band: 'high',
      codes: ['phone-landline'],
      routing: 'refuse',
    });
  });

  it('a check that cannot run passes when fail-open and costs 20 with its own code when fail-closed', () => {
    expect(scoreFindings({ velocity: undefined }, screeningSettings({}))).toMatchObject({ score: 100, codes: [] });
    const closed = screeningSettings({ screening: { checks: { velocity: { whenUnavailable: 'closed' } } } });
    expect(scoreFindings({ velocity: undefined }, closed)).toMatchObject({ score: 80, codes: ['velocity-unavailable'] });
  });

  it('outside scrubs are off unless the brand switches them on', () => {
    expect(screen({ ...input, scrubs: ['scrub-dnc'] }, defaults).codes).toEqual([]);
    const on = screeningSettings({ screening: { checks: { scrub: { action: 'flag' } } } });
    expect(screen({ ...input, scrubs: ['scrub-dnc'] }, on)).toMatchObject({ score: 50, codes: ['scrub-dnc'] });
  });
});
