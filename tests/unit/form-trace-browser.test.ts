/**
 * Both browser paths, in a real Chromium: encryptBrowser.ts is bundled with esbuild (ES
 * modules with code splitting, as Next splits a dynamic import), served by a small node:http
 * server, run once on http://127.0.0.1 (a secure context: WebCrypto) and once on
 * http://test123.example (mapped to 127.0.0.1; not secure: no crypto.subtle, so node-forge).
 * Each page posts its {key, data} to the server, and Node decrypts what arrived.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptFormTrace } from '../../engine/leads/formTrace';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium';
import type { FormTrace } from '../../engine/browser/formTrace/format';

const INSECURE_HOST = 'test123.example';

const trace: FormTrace = {
  clientId: 'GA1.1.1234567890.1712345678',
  type: 'title',
  request: {
    url: 'https://leads.example/post?lead_type=18&v1=landing-page',
    search: { lead_type: '18', v1: 'landing-page' },
    body: { name: 'Zoë Ångström', amount: 2500 },
  },
  response: { status: 200, body: '<ok/>' },
};

const page = `<!doctype html><meta charset="utf-8"><title>form trace</title>
<script>
  window.sealAndPost = async (trace, pem) => {
    const { encryptFormTrace } = await import('/encryptBrowser.js');
    const envelope = await encryptFormTrace(trace, pem);
    const res = await fetch('/trace', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(envelope) });
    return { status: res.status, secure: window.isSecureContext, subtle: typeof crypto.subtle };
  };
</script>`;

let keys: { publicKey: string; privateKey: string };
let scripts: Map<string, Uint8Array>;
let server: Server;
let port = 0;
let browser: Browser;
/** What the server saw: every script fetched (with its host) and every envelope posted. */
const fetched: { host: string; file: string }[] = [];
const posted: { host: string; body: unknown }[] = [];

beforeAll(async () => {
  keys = generateKeyPairSync('rsa', {
    modulusLength: 3072,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const out = await build({
    entryPoints: [join(process.cwd(), 'engine/browser/formTrace/encryptBrowser.ts')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    write: false,
    outdir: '/bundle',
    logLevel: 'silent',
  });
  scripts = new Map(out.outputFiles.map((f) => [basename(f.path), f.contents]));

  server = createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const path = req.url ?? '/';
    if (req.method === 'POST' && path === '/trace') {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (text += c));
      req.on('end', () => {
        posted.push({ host, body: JSON.parse(text) });
        res.writeHead(204).end();
      });
      return;
    }
    const script = scripts.get(path.slice(1));
    if (script) {
      fetched.push({ host, file: path.slice(1) });
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;

  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${INSECURE_HOST} 127.0.0.1`],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
});

async function sealInPage(host: string) {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    await tab.goto(`http://${host}:${port}/`);
    const result = (await tab.evaluate(`sealAndPost(${JSON.stringify(trace)}, ${JSON.stringify(keys.publicKey)})`)) as {
      status: number;
      secure: boolean;
      subtle: string;
    };
    return { result, envelope: posted.find((p) => p.host === host)?.body, scripts: fetched.filter((f) => f.host === host).map((f) => f.file) };
  } finally {
    await context.close();
  }
}

const forgeChunk = () => [...scripts.keys()].find((name) => name.startsWith('encryptForge'))!;
const gzipSize = (files: string[]) => files.reduce((sum, file) => sum + gzipSync(scripts.get(file)!, { level: 9 }).length, 0);

describe('form trace in a real browser, decrypted by the server', () => {
  it('the forge sealer is its own chunk', () => {
    expect(forgeChunk()).toBeDefined();
    expect(Buffer.from(scripts.get('encryptBrowser.js')!).toString()).toContain('RSA-OAEP');
  });

  it('secure context (http://127.0.0.1): WebCrypto seals, forge is never downloaded, the server decrypts', async () => {
    const { result, envelope, scripts: loaded } = await sealInPage('127.0.0.1');
    expect(result).toEqual({ status: 204, secure: true, subtle: 'object' });
    expect(loaded).toContain('encryptBrowser.js');
    expect(loaded).not.toContain(forgeChunk());
    expect(gzipSize(loaded)).toBeLessThan(4 * 1024);
    expect(decryptFormTrace(envelope, keys.privateKey)).toEqual(trace);
  }, 30_000);

  it(`non-secure context (http://${INSECURE_HOST}): no crypto.subtle, forge is loaded on demand and seals, the server decrypts`, async () => {
    const { result, envelope, scripts: loaded } = await sealInPage(INSECURE_HOST);
    expect(result).toEqual({ status: 204, secure: false, subtle: 'undefined' });
    expect(loaded).toContain(forgeChunk());
    expect(decryptFormTrace(envelope, keys.privateKey)).toEqual(trace);
  }, 30_000);
});
