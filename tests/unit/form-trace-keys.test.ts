import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptFormTrace } from '../../engine/leads/formTrace';
import { encryptFormTrace } from '../../engine/browser/formTrace/encryptBrowser';
import { loadFormTraceKeys, writeFormTraceKeyPair, type KeyPairPem } from '../../engine/keys/formTraceKeys';

const pair = (bits: number, type: 'rsa' | 'ec' = 'rsa'): KeyPairPem =>
  type === 'ec'
    ? generateKeyPairSync('ec', {
        namedCurve: 'P-256',
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      })
    : generateKeyPairSync('rsa', {
        modulusLength: bits,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });

let root: string;
let a: KeyPairPem;
let b: KeyPairPem;
let n = 0;
const freshDir = () => join(root, `keys-${n++}`);
const escaped = (pem: string) => pem.trim().replace(/\n/g, '\\n');

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'form-trace-keys-'));
  [a, b] = [pair(2048), pair(2048)];
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('loadFormTraceKeys', () => {
  it('takes the environment first, with \\n escapes, deriving the public key from the private one', () => {
    const keys = loadFormTraceKeys({ env: { FORM_TRACE_PRIVATE_KEY: escaped(a.privateKey) }, dir: freshDir() });
    expect(keys).toMatchObject({ from: 'FORM_TRACE_PRIVATE_KEY', publicKey: a.publicKey });
    expect(keys.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it('a public key alone is enough to encrypt, and there is no private key', () => {
    const keys = loadFormTraceKeys({ env: { FORM_TRACE_PUBLIC_KEY: a.publicKey, LOANSITES_DEPLOYMENT: 'production' }, dir: freshDir() });
    expect(keys).toEqual({ publicKey: a.publicKey, from: 'FORM_TRACE_PUBLIC_KEY' });
  });

  it('refuses a public key that does not belong to the private key', () => {
    expect(() => loadFormTraceKeys({ env: { FORM_TRACE_PRIVATE_KEY: a.privateKey, FORM_TRACE_PUBLIC_KEY: b.publicKey }, dir: freshDir() })).toThrow(
      /FORM_TRACE_PUBLIC_KEY does not belong to FORM_TRACE_PRIVATE_KEY/,
    );
  });

  it('refuses a key that is not RSA 2048–4096, or not a key, naming the variable', () => {
    expect(() => loadFormTraceKeys({ env: { FORM_TRACE_PRIVATE_KEY: pair(0, 'ec').privateKey } })).toThrow(
      /FORM_TRACE_PRIVATE_KEY must be an RSA key of 2048 to 4096 bits \(it is ec\)/,
    );
    expect(() => loadFormTraceKeys({ env: { FORM_TRACE_PUBLIC_KEY: 'hello' } })).toThrow(/FORM_TRACE_PUBLIC_KEY is not a PEM public key/);
  });

  it('reads data/keys files written by writeFormTraceKeyPair when no variable is set', () => {
    const dir = freshDir();
    expect(writeFormTraceKeyPair(dir, a).written).toBe(true);
    expect(statSync(join(dir, 'form-trace.key')).mode & 0o777).toBe(0o600);
    expect(loadFormTraceKeys({ env: { LOANSITES_DEPLOYMENT: 'production' }, dir })).toMatchObject({
      publicKey: a.publicKey,
      from: expect.stringMatching(/form-trace\.key$/),
    });
  });

  it('never replaces an existing key without force', () => {
    const dir = freshDir();
    writeFormTraceKeyPair(dir, a);
    expect(writeFormTraceKeyPair(dir, b).written).toBe(false);
    expect(readFileSync(join(dir, 'form-trace.key'), 'utf8')).toBe(a.privateKey);
    expect(writeFormTraceKeyPair(dir, b, { force: true }).written).toBe(true);
    expect(readFileSync(join(dir, 'form-trace.pub'), 'utf8')).toBe(b.publicKey);
  });

  it('in a deployment with nothing configured, fails saying what to set', () => {
    const dir = freshDir();
    expect(() => loadFormTraceKeys({ env: { LOANSITES_DEPLOYMENT: 'production' }, dir })).toThrow(
      /needs an RSA key pair and none is configured: set FORM_TRACE_PRIVATE_KEY .* npm run keys/,
    );
    expect(existsSync(dir)).toBe(false);
  });

  it('in development with nothing configured, generates a working dev pair once and says so', async () => {
    const dir = freshDir();
    const lines: string[] = [];
    const first = loadFormTraceKeys({ env: { NODE_ENV: 'development' }, dir, log: (l) => lines.push(l) });
    const second = loadFormTraceKeys({ env: { NODE_ENV: 'development' }, dir, log: (l) => lines.push(l) });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/generated a development RSA 3072 key pair/);
    expect(second).toEqual({ ...first, from: expect.stringMatching(/form-trace\.key$/) });
    const trace = { clientId: '', type: 'title', request: { url: 'https://x.example/', search: {}, body: null }, response: { status: 0, body: null } };
    expect(decryptFormTrace(await encryptFormTrace(trace, first.publicKey), first.privateKey!)).toEqual(trace);
  });

  it('a production build outside a deployment (npm start on a laptop) gets the dev pair', () => {
    expect(loadFormTraceKeys({ env: { NODE_ENV: 'production' }, dir: freshDir(), log: () => {} }).privateKey).toBeDefined();
  });

  it('refuses mismatched key files', () => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'form-trace.key'), a.privateKey);
    writeFileSync(join(dir, 'form-trace.pub'), b.publicKey);
    expect(() => loadFormTraceKeys({ env: {}, dir })).toThrow(/form-trace\.pub does not belong to .*form-trace\.key/);
  });
});
