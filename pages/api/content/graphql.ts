/**
 * POST /api/content/graphql — the browser-side content address in local mode (SPEC §7: a
 * different address for browser-side calls in local mode vs deployed): the embedded store
 * through the same Strapi-v4-shaped schema as a real CMS. LIVE content only, unless draft
 * mode is on. When a CMS is configured this endpoint is off (the browser talks to the CMS).
 *
 * It is open to the internet, so it answers only what a page needs: application/json bodies
 * of at most 16 KB (a form post from another site is refused), queries within the limits of
 * engine/content/queryLimits.ts, no introspection in production, answers of at most 256 KB
 * (refused from the query's shape before anything is resolved: engine/content/answerSize.ts),
 * and a per-client rate limit. Every refusal is a 4xx with the reason.
 */
import type { NextApiRequest } from 'next';
import schema from '../../../schemas/api/graphql.schema.json' with { type: 'json' };
import { embeddedIndex } from '../../../engine/content/embedded';
import { QUERY_LIMITS, QueryRefused, checkAnswerSize, checkQuery } from '../../../engine/content/queryLimits';
import { executeCheckedQuery, strapiSchema } from '../../../engine/content/strapiSchema';
import { ApiError } from '../../../engine/http/api';
import { json, route } from '../../../engine/http/route';
import { RATE_RULES } from '../../../engine/http/rateLimit';

export const config = { api: { bodyParser: false } };

interface GraphqlBody {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string | null;
}

export default route(
  {
    unavailable: () => (process.env.CONTENT_GRAPHQL_URL ? 'A CMS is configured: use its address' : undefined),
    methods: ['POST'],
    rate: RATE_RULES.graphql,
    body: json<GraphqlBody>(schema, 16 * 1024),
  },
  async ({ req, body }) => {
    const variables = body.variables ?? {};
    const index = embeddedIndex();
    let document;
    try {
      document = checkQuery(strapiSchema, body.query, variables, { introspection: process.env.NODE_ENV !== 'production' });
      // Known too large from what it asks for: refused before anything is resolved.
      checkAnswerSize(index, document, variables);
    } catch (err) {
      if (err instanceof QueryRefused) throw new ApiError(400, err.message);
      throw err;
    }
    // Draft content only in Next's draft mode (Next checks the cookie against the build's preview id).
    const result = await executeCheckedQuery(index, document, variables, {
      allowPreview: (req as NextApiRequest).draftMode === true,
      maxBytes: QUERY_LIMITS.MAX_RESPONSE_BYTES,
    });
    const text = JSON.stringify(result);
    if (Buffer.byteLength(text) > QUERY_LIMITS.MAX_RESPONSE_BYTES) throw new ApiError(400, `The answer would be larger than ${QUERY_LIMITS.MAX_RESPONSE_BYTES} bytes; ask for fewer entries`);
    return { status: result.errors?.length ? 400 : 200, body: result };
  },
);
