/**
 * A page that opens on an input: its hero followed straight away by an amount widget or the
 * application form. On a phone the hero's own button and cost note would push that input below
 * the first screen (a 390 × 844 phone showed the payday page's slider at ~1,000 px), so such a
 * hero only introduces the input — heading and lead text — and the widget below carries the call
 * to action and the cost disclosure beside the amount. Pure: what each block is (its spec says) in, roles out.
 */
import type { BlockType } from '../../schemas/brand.types';
import { specOf } from '../blockSpecs';

export type LeadInRole = 'hero' | 'input';

/** Each block's role at the page's opening, by position (undefined for the others); heading: the block holds the page's <h1> (a hero). */
export function leadInRoles(blocks: readonly { heading: boolean; input: boolean }[]): (LeadInRole | undefined)[] {
  const roles: (LeadInRole | undefined)[] = blocks.map(() => undefined);
  if (blocks[0]?.heading && blocks[1]?.input) {
    roles[0] = 'hero';
    roles[1] = 'input';
  }
  return roles;
}

/** What the opening needs to know of a block type, from its spec: does it hold the page's heading, is it an input a hero may introduce. */
export function leadInFacts(type: BlockType): { heading: boolean; input: boolean } {
  const spec = specOf(type);
  return { heading: !!spec.pageHeading, input: !!(spec.isApplication || spec.applyWidget) };
}
