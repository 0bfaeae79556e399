/**
 * POST /api/revalidate — for a CMS webhook. Header x-revalidate-secret must equal
 * REVALIDATE_SECRET (401 otherwise, nothing read or rebuilt); the JSON body {brand, paths} is
 * checked against schemas/api/revalidate.schema.json; bodies over 16 KB are refused (413). Every
 * path must be one a route of the brand serves — a page whose content is gone (an unpublished
 * article) is still one, and is revalidated into its 404 — or nothing is rebuilt and the answer is
 * 404 naming each path that is not: Next revalidates any path it is given, so a typo, a path of
 * another brand or one with a trailing slash was reported "revalidated" while no page changed. A
 * page under an experiment is revalidated with each of its variants' pages. A render of the page
 * under way from before the call, on this instance or another, is not stored over it
 * (engine/cache/brandRenders.mjs).
 */
import type { NextApiResponse } from 'next';
import schema from '../../schemas/api/revalidate.schema.json' with { type: 'json' };
import type { RevalidateRequest } from '../../schemas/api.types';
import { getCatalog } from '../../engine/site/catalog';
import { ApiError } from '../../engine/http/api';
import { internalPath } from '../../engine/browser/requestPath';
import { json, route } from '../../engine/http/route';
import { secretMatches } from '../../engine/http/preview';
import { variantPathsOf } from '../../engine/site/experiments/pages';
import { matchPath } from '../../engine/site/pageMatch';
import { pageChangedEverywhere } from '../../engine/site/brandLive';

export const config = { api: { bodyParser: false } };

export const REVALIDATE_BODY_LIMIT = 16 * 1024;

export default route(
  {
    methods: ['POST'],
    check: (req) => {
      if (!secretMatches(process.env.REVALIDATE_SECRET, req.headers['x-revalidate-secret'])) throw new ApiError(401, 'Missing or wrong x-revalidate-secret');
    },
    body: json<RevalidateRequest>(schema, REVALIDATE_BODY_LIMIT),
  },
  async ({ res, body: { brand, paths } }) => {
    const loaded = getCatalog().brands.get(brand);
    if (!loaded) throw new ApiError(404, `No brand "${brand}"`);
    const notPages = paths.flatMap((path, i) =>
      matchPath(loaded, path) ? [] : [`/paths/${i}: ${path} is not a page of ${brand}: no route of the brand serves it`],
    );
    if (notPages.length)
      throw new ApiError(
        404,
        `No page of ${brand} at ${notPages.length === 1 ? 'one of the paths' : `${notPages.length} of the paths`}; nothing was revalidated`,
        notPages,
      );
    const revalidated: string[] = [];
    const failed: { path: string; error: string }[] = [];
    for (const path of paths) {
      try {
        // a page under an experiment: each variant's copy too
        for (const at of [path, ...variantPathsOf(loaded, path)]) {
          // a render of it that read the content before now, here or on another instance, must not be stored over this one
          await pageChangedEverywhere(internalPath(brand, at));
          await (res as NextApiResponse).revalidate(internalPath(brand, at));
        }
        revalidated.push(path);
      } catch (err) {
        failed.push({ path, error: (err as Error).message });
      }
    }
    return { status: failed.length ? 207 : 200, body: { revalidated, failed } };
  },
);
