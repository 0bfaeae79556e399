/**
 * POST /api/content/graphql — the browser-side content address in local mode (SPEC §7: a
 * different address for browser-side calls in local mode vs deployed): the embedded store
 * through the same Strapi-v4-shaped schema as a real CMS. LIVE content only, unless draft
 * mode is on. When a CMS is configured this endpoint is off (the browser talks to the CMS).
 */
import Ajv2020 from 'ajv/dist/2020.js';
import type { NextApiRequest, NextApiResponse } from 'next';
import schema from '../../../schemas/api/graphql.schema.json' with { type: 'json' };
import { embeddedIndex } from '../../../engine/content/service';
import { executeStrapiQuery } from '../../../engine/content/strapiSchema';
import { toProblems } from '../../../engine/validate/schema';

export const config = { api: { bodyParser: { sizeLimit: '32kb' } } };

const validate = new Ajv2020({ allErrors: true, verbose: true, strict: false }).compile<{ query: string; variables?: Record<string, unknown> }>(schema);

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  if (process.env.CONTENT_GRAPHQL_URL) return res.status(404).json({ errors: [{ message: 'A CMS is configured: use its address' }] });
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return res.status(405).json({ errors: [{ message: 'Use POST' }] });
  }
  if (!validate(req.body)) {
    return res.status(400).json({ errors: toProblems(validate.errors).map((p) => ({ message: `${p.pointer || '/'}: ${p.message}` })) });
  }
  const result = await executeStrapiQuery(embeddedIndex(), req.body, { allowPreview: req.draftMode === true });
  res.setHeader('Cache-Control', 'no-store');
  return res.status(result.errors?.length ? 400 : 200).json(result);
}
