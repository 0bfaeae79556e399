/**
 * GET /api/error-reporting: where the browser's error reporter (engine/errors/reporterScript.mjs)
 * posts its envelopes — the envelope endpoint of this server's SENTRY_DSN, with the public key in
 * the query as Sentry's browser SDK sends it — and the environment to tag them with. The page
 * cannot carry it: pages are cached (ISR), some rendered at build, before a deployment's DSN
 * exists. The reporter asks once per page load, and only when it has something to report.
 * No DSN (or not a DSN) → 404, and the browser sends nothing.
 *
 * The answer is the same for every brand and client, and public (a DSN's key only allows sending
 * events); browsers may keep it for 5 minutes.
 */
import { browserEnvelopeUrl } from '../../engine/errors/dsn.mjs';
import { ApiError } from '../../engine/http/api';
import { route } from '../../engine/http/route';
import { configuredDsn, environment } from '../../engine/errors/report';

export default route({ methods: ['GET', 'HEAD'] }, async () => {
  const dsn = configuredDsn();
  if (!dsn) throw new ApiError(404, 'Error reports are not collected on this server');
  return { status: 200, body: { url: browserEnvelopeUrl(dsn), environment: environment() }, headers: { 'Cache-Control': 'public, max-age=300' } };
});
