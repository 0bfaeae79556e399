/**
 * A page that opens on an input: its hero followed straight away by an amount widget or the
 * application form. On a phone the hero's own button and cost note would push that input below
 * the first screen (a 390 × 844 phone showed the payday page's slider at ~1,000 px), so such a
 * hero only introduces the input — heading and lead text — and the widget below carries the call
 * to action and the cost disclosure beside the amount. Pure: block types in, roles out.
 */
export type LeadInRole = 'hero' | 'input';

/** Each block's role at the page's opening, by position (undefined for the others). */
export function leadInRoles(blocks: readonly { type: string; input: boolean }[]): (LeadInRole | undefined)[] {
  const roles: (LeadInRole | undefined)[] = blocks.map(() => undefined);
  if (blocks[0]?.type === 'hero' && blocks[1]?.input) {
    roles[0] = 'hero';
    roles[1] = 'input';
  }
  return roles;
}
