/**
 * The console's one-time codes: RFC 6238's own SHA-1 test vectors (and RFC 4226's HOTP ones),
 * base32 both ways, the ±1 step window, a used step refused (no replay), the otpauth:// URI an
 * authenticator app reads, and who must have a second factor.
 */
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, groupedSecret, hotp, matchTotp, otpauthUri, totp, totpRequired } from '../../engine/console/totp';

const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');

describe('RFC 6238 (SHA-1, 30 s steps)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at %i s the 8-digit code is %s, and the 6-digit code its last six digits', (seconds, code) => {
    expect(totp(RFC_KEY, seconds * 1000, 8)).toBe(code);
    expect(totp(RFC_KEY, seconds * 1000)).toBe(code.slice(2));
  });
  it.each([
    [0, '755224'],
    [1, '287082'],
    [5, '254676'],
    [9, '520489'],
  ])('RFC 4226 HOTP counter %i is %s', (counter, code) => expect(hotp(RFC_KEY, counter)).toBe(code));
});

describe('base32', () => {
  it.each([
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ])('RFC 4648: %j ↔ %s', (plain, encoded) => {
    expect(base32Encode(Buffer.from(plain))).toBe(encoded);
    expect(base32Decode(encoded)!.toString()).toBe(plain);
  });
  it('reads a secret typed in lower case, in groups, with padding; refuses other letters', () => {
    expect(base32Decode('mzxw 6ytb oi======')!.toString()).toBe('foobar');
    expect(base32Decode('MZXW1')).toBeUndefined();
    expect(groupedSecret(RFC_KEY)).toBe('GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ');
  });
});

describe('matching a typed code', () => {
  const at = 1111111111_000;
  const step = Math.floor(at / 30_000);
  it('the current step and one either side; nothing further; digits only', () => {
    expect(matchTotp(RFC_KEY, totp(RFC_KEY, at), at, 0)).toBe(step);
    expect(matchTotp(RFC_KEY, totp(RFC_KEY, at - 30_000), at, 0)).toBe(step - 1);
    expect(matchTotp(RFC_KEY, totp(RFC_KEY, at + 30_000), at, 0)).toBe(step + 1);
    expect(matchTotp(RFC_KEY, totp(RFC_KEY, at - 60_000), at, 0)).toBeUndefined();
    expect(matchTotp(RFC_KEY, totp(RFC_KEY, at + 60_000), at, 0)).toBeUndefined();
    expect(matchTotp(RFC_KEY, ` ${totp(RFC_KEY, at).slice(0, 3)} ${totp(RFC_KEY, at).slice(3)} `, at, 0)).toBe(step);
    for (const bad of ['', '12345', '1234567', 'abcdef', '12345x']) expect(matchTotp(RFC_KEY, bad, at, 0)).toBeUndefined();
  });
  it('a code whose step was used (or an earlier one) is refused: no replay within the window', () => {
    expect(matchTotp(RFC_KEY, totp(RFC_KEY, at), at, step)).toBeUndefined();
    expect(matchTotp(RFC_KEY, totp(RFC_KEY, at - 30_000), at, step)).toBeUndefined();
    expect(matchTotp(RFC_KEY, totp(RFC_KEY, at + 30_000), at, step)).toBe(step + 1);
  });
  it('another key’s code is refused', () => {
    expect(matchTotp(Buffer.from('another secret key!!'), totp(RFC_KEY, at), at, 0)).toBeUndefined();
  });
});

describe('enrolment and who must enrol', () => {
  it('the otpauth:// URI names the issuer and account, and carries the base32 secret and the parameters', () => {
    const text = otpauthUri(RFC_KEY, 'ops@example.com');
    expect(text.startsWith('otpauth://totp/loansites%20console:ops%40example.com?')).toBe(true);
    const uri = new URL(text);
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
      issuer: 'loansites console',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
  it.each([
    ['admin', 'production', true],
    ['admin', undefined, false],
    ['analyst', 'production', false],
    ['viewer', 'production', false],
  ] as const)('%s with LOANSITES_DEPLOYMENT=%s must have a second factor: %s', (role, deployment, want) => {
    expect(totpRequired(role, { LOANSITES_DEPLOYMENT: deployment })).toBe(want);
  });
});
