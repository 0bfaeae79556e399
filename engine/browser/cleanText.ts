/**
 * What the browser keeps of a value it did not write (a URL parameter, a stored one, an analytics
 * id) before sending it: no control characters (they are not part of any campaign or id, and the
 * server refuses them: a NUL cannot be stored in PostgreSQL, a terminal escape or a line break
 * would reach the console and the logs), and no half of a surrogate pair, which a cut in the
 * middle of an emoji leaves and the server refuses too (engine/http/jsonText.ts).
 */

// eslint-disable-next-line no-control-regex -- control characters are what it finds
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` without control characters or lone surrogates, trimmed and cut to at most `max` UTF-16 units, never inside a pair. */
export function cleanText(text: string, max: number): string {
  const cut = text.replace(CONTROL, '').replace(LONE_SURROGATES, '').trim().slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A click id ("gg" + gclid, "tt" + ttclid) cleaned as cleanText does; "" when nothing is left of the id itself. */
export function cleanClickId(clickId: string, max: number): string {
  const cut = cleanText(clickId, max);
  return /^(gg|tt)./.test(cut) ? cut : '';
}
