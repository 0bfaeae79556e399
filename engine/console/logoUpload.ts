/**
 * A brand's logo uploaded in the studio: an SVG or a PNG, at most LOGO_LIMIT bytes. An SVG is
 * rebuilt from an allowlist before it is stored — shapes, text, gradients and their presentation
 * attributes only — so what is served can run nothing and fetch nothing: no script, no event
 * handler, no foreignObject, no style sheet, no animation, no link or reference outside the file
 * (only "#id" references within it), no entity declarations. A PNG is taken when it is one (its
 * signature and its header chunk). Stored by the hash of what is kept (engine/store/brandRevisions.ts
 * saveBrandLogo) and served from every brand host at /api/brand-logo/{hash}.{svg|png}, so a published
 * brand shows it without a deploy.
 */
import { createHash } from 'node:crypto';
import sanitizeHtml from 'sanitize-html';

export const LOGO_LIMIT = 256 * 1024;
export { LOGO_PATH } from '../site/placeholderLogo';

const SVG_TAGS = [
  'svg',
  'g',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'title',
  'desc',
  'defs',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'symbol',
  'use',
];

const SVG_ATTRIBUTES = [
  'xmlns',
  'xmlns:xlink',
  'version',
  'id',
  'class',
  'viewBox',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'd',
  'points',
  'pathLength',
  'transform',
  'preserveAspectRatio',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'opacity',
  'clip-path',
  'clip-rule',
  'mask',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'letter-spacing',
  'text-anchor',
  'dominant-baseline',
  'dx',
  'dy',
  'role',
  'aria-label',
  'aria-hidden',
  'focusable',
  'href',
  'xlink:href',
];

const SVG_NAMESPACES = new Map([
  ['xmlns', 'http://www.w3.org/2000/svg'],
  ['xmlns:xlink', 'http://www.w3.org/1999/xlink'],
]);

/** A value that reaches outside the file: any url(...) but url(#id), any scheme, an @import, an expression. */
const OUTSIDE = /url\s*\(\s*(?!['"]?#)|[a-z][a-z0-9+.-]*\s*:|@import|expression\s*\(|\\/i;

/** The attributes kept: references only within the file ("#id"), namespaces only SVG's and XLink's, nothing reaching outside. */
function keptAttributes(attribs: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (name === 'href' || name === 'xlink:href') {
      if (/^#[A-Za-z_][\w.-]*$/.test(value.trim())) out[name] = value.trim();
      continue;
    }
    const ns = SVG_NAMESPACES.get(name);
    if (ns) {
      if (value.trim() === ns) out[name] = ns;
      continue;
    }
    if (OUTSIDE.test(value)) continue;
    out[name] = value;
  }
  return out;
}

export type LogoCheck = { ok: true; bytes: Buffer; type: 'image/svg+xml' | 'image/png'; name: string } | { ok: false; problem: string };

/** An SVG's text rebuilt from the allowlist, or why it cannot be a logo. */
export function sanitiseSvg(text: string): { svg: string } | { problem: string } {
  if (/<!ENTITY|<!DOCTYPE[^>]*\[/i.test(text)) return { problem: 'the SVG declares entities; save it again without a DOCTYPE' };
  const svg = sanitizeHtml(text, {
    allowedTags: SVG_TAGS,
    allowedAttributes: { '*': SVG_ATTRIBUTES },
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: [],
    allowProtocolRelative: false,
    parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false, decodeEntities: true },
    // whatever is not kept goes with everything inside it (a script's text is not left behind as text)
    disallowedTagsMode: 'discard',
    nonTextTags: ['script', 'style', 'foreignObject', 'textarea', 'noscript', 'iframe', 'object', 'embed', 'template'],
    transformTags: { '*': (tagName, attribs) => ({ tagName, attribs: keptAttributes(attribs) }) },
    selfClosing: ['path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'stop', 'use'],
  }).trim();
  if (!/^<svg[\s>]/.test(svg) || !svg.endsWith('</svg>') || !oneRoot(svg)) return { problem: 'this is not an SVG image (it must be one <svg> element)' };
  // Served as image/svg+xml on its own, an <svg> without SVG's namespace is not drawn at all (a
  // namespace other than SVG's was dropped above): the root always declares it.
  return { svg: /^<svg[^>]*\sxmlns="/.test(svg) ? svg : svg.replace(/^<svg/, `<svg xmlns="${SVG_NAMESPACES.get('xmlns')}"`) };
}

/** Whether the first <svg> closes at the text's end: two elements side by side are no XML document, and no image. */
function oneRoot(svg: string): boolean {
  let depth = 0;
  for (const m of svg.matchAll(/<(\/?)svg\b[^>]*?(\/?)>/g)) {
    if (m[2]) continue;
    depth += m[1] ? -1 : 1;
    if (depth === 0) return m.index + m[0].length === svg.length;
  }
  return false;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An uploaded logo checked (and an SVG sanitised), with the name it is stored and served under. */
export function checkLogo(bytes: Buffer, contentType: string): LogoCheck {
  if (bytes.length === 0) return { ok: false, problem: 'the file is empty' };
  if (bytes.length > LOGO_LIMIT)
    return { ok: false, problem: `a logo may be at most ${LOGO_LIMIT / 1024} KB; this one is ${Math.ceil(bytes.length / 1024)} KB` };
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const named = (kept: Buffer, ext: 'svg' | 'png') => `${createHash('sha256').update(kept).digest('hex').slice(0, 32)}.${ext}`;
  if (type === 'image/png') {
    if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.subarray(12, 16).toString('latin1') !== 'IHDR')
      return { ok: false, problem: 'this is not a PNG image' };
    return { ok: true, bytes, type, name: named(bytes, 'png') };
  }
  if (type === 'image/svg+xml') {
    const text = bytes.toString('utf8');
    const clean = sanitiseSvg(text);
    if ('problem' in clean) return { ok: false, problem: clean.problem };
    const kept = Buffer.from(clean.svg);
    return { ok: true, bytes: kept, type, name: named(kept, 'svg') };
  }
  return { ok: false, problem: 'send the logo as image/svg+xml or image/png' };
}

/** What a stored logo is served with: never sniffed, and an SVG opened on its own runs and loads nothing. */
export const LOGO_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'Cache-Control': 'public, max-age=31536000, immutable',
} as const;
