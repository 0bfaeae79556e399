/**
 * The deployment's placeholder-logo check, shared by every way a brand goes live (the studio's
 * Publish and restore, and a publication set for later when it comes due): in a deployment, an
 * uploaded logo that is a placeholder (the wizard's: the name on the colour, or a letter tile) is
 * refused as `npm run validate -- --production` refuses one in public/logos/. It is fine while a
 * brand is being made, not in front of borrowers.
 */
import { isDeployment } from '../keys/keyFormat.mjs';
import { brandLogo } from '../store/brandRevisions';
import type { Store } from '../store/db';
import { locate, parseJson } from '../validate/locate';
import { isPlaceholderLogo } from '../validate/placeholders';
import type { BrandProblem } from './brandOverlay';
import { getCatalog, revisionText } from './catalog';

/** Where a logo uploaded in the studio is served from, on every brand host: `${LOGO_PATH}{hash}.{svg|png}`. */
export const LOGO_PATH = '/api/brand-logo/';

/** The document's placeholder logo as a problem at /organization/logo, in a deployment only; none otherwise. */
export async function placeholderLogoProblems(db: Store, id: string, document: unknown): Promise<BrandProblem[]> {
  if (!isDeployment(process.env)) return [];
  const src = (document as { organization?: { logo?: unknown } } | undefined)?.organization?.logo;
  if (typeof src !== 'string' || !src.startsWith(LOGO_PATH)) return [];
  const stored = await brandLogo(db, src.slice(LOGO_PATH.length));
  if (stored?.type !== 'image/svg+xml' || !isPlaceholderLogo(stored.bytes.toString('utf8'))) return [];
  const text = revisionText(document);
  const at = locate(text, parseJson(text).tree, '/organization/logo') ?? { line: 1, column: 1 };
  const file = getCatalog().brands.get(id)?.file ?? `brands/${id}.json`;
  const message = `${src} is a placeholder logo; give the brand's real one (fine for local development)`;
  return [{ pointer: '/organization/logo', message, text: `${file}:${at.line}:${at.column} /organization/logo: ${message}`, file }];
}
