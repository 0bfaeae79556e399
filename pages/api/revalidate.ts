/**
 * POST /api/revalidate — for a CMS webhook. Header x-revalidate-secret must equal
 * REVALIDATE_SECRET (401 otherwise, nothing rebuilt); the body {brand, paths} is checked
 * against schemas/api/revalidate.schema.json; bodies over 16 KB are refused (413).
 */
import Ajv2020 from 'ajv/dist/2020.js';
import type { NextApiRequest, NextApiResponse } from 'next';
import schema from '../../schemas/api/revalidate.schema.json' with { type: 'json' };
import { getCatalog } from '../../engine/catalog';
import { internalPath } from '../../engine/http/requestPath';
import { secretMatches } from '../../engine/preview';
import { toProblems } from '../../engine/validate/schema';

export const config = { api: { bodyParser: { sizeLimit: '16kb' } } };

const validate = new Ajv2020({ allErrors: true, verbose: true, strict: false }).compile<{ brand: string; paths: string[] }>(schema);

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return res.status(405).json({ error: 'Use POST' });
  }
  if (!secretMatches(process.env.REVALIDATE_SECRET, req.headers['x-revalidate-secret'])) {
    return res.status(401).json({ error: 'Missing or wrong x-revalidate-secret' });
  }
  if (!validate(req.body)) {
    return res.status(400).json({ error: 'The body is not valid', problems: toProblems(validate.errors).map((p) => `${p.pointer || '/'}: ${p.message}`) });
  }
  const { brand, paths } = req.body;
  if (!getCatalog().brands.has(brand)) return res.status(404).json({ error: `No brand "${brand}"` });
  const revalidated: string[] = [];
  const failed: { path: string; error: string }[] = [];
  for (const path of paths) {
    try {
      await res.revalidate(internalPath(brand, path));
      revalidated.push(path);
    } catch (err) {
      failed.push({ path, error: (err as Error).message });
    }
  }
  return res.status(failed.length ? 207 : 200).json({ revalidated, failed });
}
