/**
 * How long a visit's campaign, source or landing page may be, as one rule for everything that
 * handles one: the browser that cuts a landing URL's parameter before sending it
 * (./visit.ts landingParams), the events API that refuses a longer one
 * (schemas/api/events.schema.json's maxLength), the console's filters that must take a stored one
 * whole, and the cost import that must name it (engine/traffic/costCsv.ts). Counted in
 * characters, as JSON Schema's maxLength counts them (Unicode code points): an emoji or a
 * CJK-supplement character is one, though JavaScript's `length` counts it as two. Counted in
 * UTF-16 units anywhere, a campaign of 300 such characters would be stored by one side and cut
 * or refused by the other, and its cost would never meet its visits.
 */
export const VISIT_VALUE_MAX = 500;

/** The characters (Unicode code points) of `text`, as JSON Schema's minLength and maxLength count them. */
export function characterCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * `text` as a visit keeps it when it is longer than `max` characters: its first `max`
 * characters (never half of an emoji), without the spaces the cut may leave at its end (the
 * events API trims what it stores). A cost report's campaign longer than that is cut the same
 * way, so that its cost meets the visits that came from it.
 */
export function cutToCharacters(text: string, max: number = VISIT_VALUE_MAX): string {
  let n = 0;
  let end = 0;
  for (const ch of text) {
    if (n === max) return text.slice(0, end).trimEnd();
    n++;
    end += ch.length;
  }
  return text;
}
