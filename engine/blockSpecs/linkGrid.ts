import type { BlockSpec } from './types';

export const linkGridSpec: BlockSpec<'linkGrid'> = {
  check: (block, { at, checkLink }) => block.links.forEach((l, j) => checkLink(`${at}/links/${j}/href`, l.href)),
};
