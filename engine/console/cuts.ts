/** The overview's lead cuts and their tables' captions (pure: the page's component reads it; engine/console/cutsQuery.ts answers them). */
export const CUTS = [
  ['buyer', 'By buyer'],
  ['subId', 'By sub-id'],
  ['landing', 'By landing page (leads)'],
  ['loanKind', 'By loan kind'],
] as const;
export type Cut = (typeof CUTS)[number][0];
