/**
 * POST /api/trace — the encrypted form trace (SPEC §4, §7): {key, data}, sealed in the browser
 * for this server's RSA key (engine/formTrace). Opened with the private key, checked as any
 * request body (no key twice in one object, nesting capped, its schema) and stored. SPEC §8:
 * trace errors are logged only — the browser never waits on this — but the answer still says
 * what was wrong (400) for whoever debugs it.
 */
import envelopeSchema from '../../../schemas/api/form-trace-envelope.schema.json' with { type: 'json' };
import { decryptFormTrace } from '../../../engine/leads/formTrace';
import { FORM_TRACE_MAX_ENVELOPE_BYTES, FormTraceError } from '../../../engine/browser/formTrace/format';
import { formTracePrivateKey } from '../../../engine/keys/formTraceKeys';
import { ApiError, truncateIp } from '../../../engine/http/api';
import { json, route } from '../../../engine/http/route';
import { RATE_RULES } from '../../../engine/http/rateLimit';
import { recordFormTrace } from '../../../engine/store/leads';

export const config = { api: { bodyParser: false } };

export default route(
  { methods: ['POST'], brand: true, rate: RATE_RULES.formTrace, body: json<unknown>(envelopeSchema, FORM_TRACE_MAX_ENVELOPE_BYTES) },
  async ({ body: envelope, brand: loaded, ip, store }) => {
    let trace;
    try {
      trace = decryptFormTrace(envelope, formTracePrivateKey());
    } catch (err) {
      if (err instanceof FormTraceError) {
        console.warn(`[trace] refused a form trace for ${loaded.brand.id}: ${err.code}: ${err.message}`);
        throw new ApiError(400, `The form trace could not be opened (${err.code})`, err.problems ?? []);
      }
      throw err;
    }
    const id = await recordFormTrace(await store(), {
      brand: loaded.brand.id,
      client_id: trace.clientId,
      type: trace.type,
      trace: JSON.stringify(trace),
      ip: truncateIp(ip),
      created_at: new Date().toISOString(),
    });
    return { status: 201, body: { id } };
  },
);
