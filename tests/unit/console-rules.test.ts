/**
 * Console account rules as tables: who may see what, what each role sees of a lead's personal
 * data, the sign-in lockout, CSRF tokens and password hashing.
 */
import { describe, expect, it } from 'vitest';
import { csrfToken, csrfValid } from '../../engine/console/csrf';
import { afterAttempt, loginAllowed, LOGIN_RULES, NETWORK_LOGIN_RULES, NO_ATTEMPTS, type AttemptRecord } from '../../engine/console/loginLimit';
import { leadForRole, maskEmail, maskPhone } from '../../engine/console/masking';
import { hashPassword, passwordProblem, verifyPassword } from '../../engine/console/passwords';
import { may, mayEditBrand, PERMISSIONS, ROLES, type Permission, type Role } from '../../engine/console/roles';

describe('who may see what', () => {
  const TABLE: Record<Permission, [admin: boolean, analyst: boolean, viewer: boolean, buyerManager: boolean, editor: boolean]> = {
    'overview.view': [true, true, true, true, true],
    'brands.view': [true, true, true, true, true],
    'buyers.view': [true, true, false, true, false],
    'buyers.manage': [true, false, false, true, false],
    'leads.list': [true, true, false, false, false],
    'leads.view': [true, true, false, false, false],
    'leads.reveal': [true, true, false, false, false],
    'leads.trace': [true, false, false, false, false],
    'exports.run': [true, false, false, false, false],
    'users.manage': [true, false, false, false, false],
    'audit.view': [true, false, false, false, false],
    'studio.view': [true, true, true, true, true],
    'studio.edit': [true, false, false, false, true],
  };
  it('the table names every permission', () => expect(Object.keys(TABLE).sort()).toEqual([...PERMISSIONS].sort()));
  it.each(PERMISSIONS.flatMap((p) => ROLES.map((r, i) => [r, p, TABLE[p][i]] as const)))('%s may %s: %s', (role, permission, want) => {
    expect(may(role, permission)).toBe(want);
  });
  it('no role, or an unknown one, may do nothing', () => {
    expect(PERMISSIONS.some((p) => may(undefined, p) || may('root' as Role, p))).toBe(false);
  });
});

describe('who may change a brand in the studio', () => {
  it.each([
    ['admin', null, 'ipaydayloans', true],
    ['editor', null, 'ipaydayloans', true],
    ['editor', '', 'ipaydayloans', true],
    ['editor', 'cocoloan, ipaydayloans', 'ipaydayloans', true],
    ['editor', 'cocoloan', 'ipaydayloans', false],
    ['analyst', null, 'ipaydayloans', false],
    ['viewer', null, 'ipaydayloans', false],
    ['buyer-manager', null, 'ipaydayloans', false],
  ] as const)('%s limited to %j may change %s: %s', (role, brands, brand, want) => {
    expect(mayEditBrand({ role, brands }, brand)).toBe(want);
  });
});

describe('personal data by role', () => {
  const lead = { id: 'ld1', email: 'ana.garcia@example.org', phone: '5125550123', first_name: 'Ana', last_name: 'García', amount: 500 };
  it.each([
    ['ana.garcia@example.org', 'a•••@e•••.org'],
    ['x@y', 'x•••@y•••'],
    ['broken', '•••'],
  ])('email %s → %s', (e, want) => expect(maskEmail(e)).toBe(want));
  it.each([
    ['5125550123', '•••-•••-0123'],
    ['(512) 555-0199', '•••-•••-0199'],
    ['12', '•••'],
  ])('phone %s → %s', (p, want) => expect(maskPhone(p)).toBe(want));
  it.each([
    ['admin', false, { email: lead.email, phone: lead.phone, last_name: 'García', masked: false }],
    ['admin', true, { email: lead.email, phone: lead.phone, masked: false }],
    ['analyst', false, { email: 'a•••@e•••.org', phone: '•••-•••-0123', last_name: 'G.', masked: true }],
    ['analyst', true, { email: lead.email, phone: lead.phone, last_name: 'García', masked: false }],
  ] as const)('%s (revealed: %s) sees %j', (role, revealed, want) => {
    const seen = leadForRole(lead, role, revealed);
    expect(seen).toMatchObject({ ...want, id: 'ld1', amount: 500, first_name: 'Ana' });
  });
  it('a viewer sees no lead at all, revealed or not', () => {
    expect(leadForRole(lead, 'viewer', false)).toBeUndefined();
    expect(leadForRole(lead, 'viewer', true)).toBeUndefined();
  });
});

describe('sign-in lockout', () => {
  const t0 = Date.parse('2025-03-01T10:00:00Z');
  const fail = (rec: AttemptRecord, at: number) => afterAttempt(rec, false, at);
  it('a shared network locks only at its fiftieth failure, and one operator signing in does not clear it', () => {
    let rec = NO_ATTEMPTS;
    for (let i = 0; i < 49; i++) {
      const r = afterAttempt(rec, false, t0 + i * 1000, NETWORK_LOGIN_RULES, false);
      expect(r.locked).toBe(false);
      rec = afterAttempt(r.rec, true, t0 + i * 1000 + 500, NETWORK_LOGIN_RULES, false).rec;
    }
    expect(rec.failures).toBe(49);
    const fiftieth = afterAttempt(rec, false, t0 + 50_000, NETWORK_LOGIN_RULES, false);
    expect(fiftieth.locked).toBe(true);
    expect(loginAllowed(fiftieth.rec, t0 + 51_000).ok).toBe(false);
  });
  it('four failures leave the door open; the fifth locks it for 15 minutes, even for the right password', () => {
    let rec = NO_ATTEMPTS;
    for (let i = 0; i < 4; i++) {
      const r = fail(rec, t0 + i * 1000);
      expect(r.locked).toBe(false);
      rec = r.rec;
    }
    expect(loginAllowed(rec, t0 + 5000).ok).toBe(true);
    const fifth = fail(rec, t0 + 5000);
    expect(fifth.locked).toBe(true);
    expect(loginAllowed(fifth.rec, t0 + 6000)).toEqual({ ok: false, retryAfterSeconds: 15 * 60 - 1 });
    expect(loginAllowed(fifth.rec, t0 + 5000 + LOGIN_RULES.lockMs).ok).toBe(true);
  });
  it('failures spread wider than the window never lock', () => {
    let rec = NO_ATTEMPTS;
    for (let i = 0; i < 20; i++) {
      const r = fail(rec, t0 + i * (LOGIN_RULES.windowMs / 4 + 1));
      rec = r.rec;
      expect(r.locked).toBe(false);
    }
  });
  it('another failure right after a lockout locks again for twice as long; a success clears everything', () => {
    let rec = NO_ATTEMPTS;
    for (let i = 0; i < 5; i++) rec = fail(rec, t0).rec;
    const after = t0 + LOGIN_RULES.lockMs + 1000;
    const again = fail(rec, after);
    expect(again.locked).toBe(true);
    expect(again.rec.lockedUntil - after).toBe(2 * LOGIN_RULES.lockMs);
    expect(afterAttempt(again.rec, true, after + 3 * LOGIN_RULES.lockMs).rec).toEqual(NO_ATTEMPTS);
  });
});

describe('CSRF tokens', () => {
  it('are tied to the session: the right one passes, any other is refused', () => {
    const t = csrfToken('session-a');
    expect(csrfValid('session-a', t)).toBe(true);
    for (const bad of [csrfToken('session-b'), '', t.slice(1), `${t}x`, undefined, 42, null]) expect(csrfValid('session-a', bad)).toBe(false);
    expect(csrfValid('', csrfToken(''))).toBe(false);
  });
});

describe('passwords', () => {
  it('are stored as scrypt with a random salt, verify only with the right password, and never throw on a bad hash', async () => {
    const cheap = { N: 2 ** 14, r: 8, p: 1 };
    const a = await hashPassword('correct horse battery', cheap);
    const b = await hashPassword('correct horse battery', cheap);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterz', a)).toBe(false);
    for (const bad of ['', 'plain', 'scrypt$x$8$1$a$b', 'scrypt$99999999999$8$1$AAAA$AAAA', a.replace(/\$[^$]+$/, '$')])
      expect(await verifyPassword('x', bad)).toBe(false);
  });
  it('cost N=2^17, r=8, p=1 by default (OWASP’s floor for scrypt)', async () => {
    expect(await hashPassword('correct horse battery')).toMatch(/^scrypt\$131072\$8\$1\$/);
  }, 60_000);
  it.each([
    ['short', 'A password needs at least 12 characters'],
    ['a'.repeat(20), 'A password of one repeated character is too easy to guess'],
    ['x'.repeat(1025), 'A password may have at most 1024 characters'],
    ['twelve chars ok', undefined],
  ])('%s → %s', (pw, want) => expect(passwordProblem(pw)).toBe(want));
});
