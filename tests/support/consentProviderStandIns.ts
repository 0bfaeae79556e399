/**
 * Stand-ins for TrustedForm's and Jornaya LeadiD's services on loopback (there is no outside
 * network in tests): one HTTP server serving both providers' scripts as the brand's apply page
 * loads them (TRUSTEDFORM_SCRIPT_URL, JORNAYA_SCRIPT_URL) and the endpoints those scripts call.
 * Like the real ones, each script asks its service for a certificate (TrustedForm: a certificate
 * URL on TRUSTEDFORM_CERT_ORIGIN; Jornaya: a 36-character token, for the campaign in the script's
 * path) and writes it into the form's hidden field; the service remembers what it issued, so a
 * test can tell a real certificate from a made-up one.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface ConsentProviderStandIns {
  origin: string;
  env: { TRUSTEDFORM_SCRIPT_URL: string; TRUSTEDFORM_CERT_ORIGIN: string; JORNAYA_SCRIPT_URL: string };
  /** certificate URLs issued (TrustedForm) */
  certificates: string[];
  /** tokens issued (Jornaya), with the campaign whose script asked */
  tokens: { token: string; campaign: string }[];
  close(): Promise<void>;
}

const TRUSTEDFORM_SCRIPT = (origin: string) => `(function () {
  fetch('${origin}/trustedform/certificates', { method: 'POST' })
    .then(function (r) { return r.json(); })
    .then(function (a) {
      document.querySelectorAll('form').forEach(function (form) {
        var field = form.querySelector('input[name="xxTrustedFormCertUrl"]');
        if (!field) { field = document.createElement('input'); field.type = 'hidden'; field.name = 'xxTrustedFormCertUrl'; form.appendChild(field); }
        field.value = a.certUrl;
      });
    });
})();`;

const JORNAYA_SCRIPT = (origin: string, campaign: string) => `(function () {
  fetch('${origin}/jornaya/tokens?campaign=${encodeURIComponent(campaign)}', { method: 'POST' })
    .then(function (r) { return r.json(); })
    .then(function (a) { var f = document.getElementById('leadid_token'); if (f) f.value = a.token; });
})();`;

export async function startConsentProviderStandIns(port: number): Promise<ConsentProviderStandIns> {
  const origin = `http://127.0.0.1:${port}`;
  const standIns: ConsentProviderStandIns = {
    origin,
    env: {
      TRUSTEDFORM_SCRIPT_URL: `${origin}/trustedform.js?field=xxTrustedFormCertUrl`,
      TRUSTEDFORM_CERT_ORIGIN: origin,
      JORNAYA_SCRIPT_URL: `${origin}/campaign/{campaignId}.js`,
    },
    certificates: [],
    tokens: [],
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    // the brand's page calls these from its own origin
    const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
    const js = (text: string) => res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(text);
    const json = (body: object) => res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
    const campaign = /^\/campaign\/([A-Za-z0-9-]+)\.js$/.exec(url.pathname)?.[1];
    if (req.method === 'GET' && url.pathname === '/trustedform.js') return js(TRUSTEDFORM_SCRIPT(origin));
    if (req.method === 'GET' && campaign) return js(JORNAYA_SCRIPT(origin, campaign));
    if (req.method === 'POST' && url.pathname === '/trustedform/certificates') {
      const certUrl = `${origin}/${randomBytes(20).toString('hex')}`;
      standIns.certificates.push(certUrl);
      return json({ certUrl });
    }
    if (req.method === 'POST' && url.pathname === '/jornaya/tokens') {
      const token = randomUUID().toUpperCase();
      standIns.tokens.push({ token, campaign: url.searchParams.get('campaign') ?? '' });
      return json({ token });
    }
    res.writeHead(404, headers).end();
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  standIns.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return standIns;
}
