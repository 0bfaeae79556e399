/**
 * POST /api/revalidate — for a CMS webhook. Header x-revalidate-secret must equal
 * REVALIDATE_SECRET (401 otherwise, nothing read or rebuilt); the JSON body {brand, paths} is
 * checked against schemas/api/revalidate.schema.json; bodies over 16 KB are refused (413).
 */
import type { NextApiRequest, NextApiResponse } from 'next';
import schema from '../../schemas/api/revalidate.schema.json' with { type: 'json' };
import type { RevalidateRequest } from '../../schemas/api.types';
import { getCatalog } from '../../engine/site/catalog';
import { ApiError, handleApi, readJsonBody, requireMethod } from '../../engine/http/api';
import { internalPath } from '../../engine/browser/requestPath';
import { secretMatches } from '../../engine/http/preview';

export const config = { api: { bodyParser: false } };

export const REVALIDATE_BODY_LIMIT = 16 * 1024;

export default function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  return handleApi(req, res, async () => {
    requireMethod(req, ['POST']);
    if (!secretMatches(process.env.REVALIDATE_SECRET, req.headers['x-revalidate-secret'])) throw new ApiError(401, 'Missing or wrong x-revalidate-secret');
    const { brand, paths } = await readJsonBody<RevalidateRequest>(req, { limit: REVALIDATE_BODY_LIMIT, schema });
    if (!getCatalog().brands.has(brand)) throw new ApiError(404, `No brand "${brand}"`);
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
    return { status: failed.length ? 207 : 200, body: { revalidated, failed } };
  });
}
