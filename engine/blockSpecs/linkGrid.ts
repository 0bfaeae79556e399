import type { LoanType } from '../../schemas/brand.types';
import { loanTypeVars, showsForLoanType } from '../site/loanTypeText';
import { fill } from '../site/templates';
import { pageLoanTypes } from '../site/routeLoanTypes';
import type { BlockSpec } from './types';

export const linkGridSpec: BlockSpec<'linkGrid'> = {
  // A link may name the page's loan type ("/{loanType.slug}/location/search"): it is checked as
  // each page of the layout that shows the block would fill it.
  check: (block, { at, checkLink, routes, brand }) => {
    const types = pageLoanTypes(routes, brand).filter((t): t is LoanType => !!t && showsForLoanType(block, t as LoanType));
    block.links.forEach((l, j) => {
      const pointer = `${at}/links/${j}/href`;
      if (!l.href.includes('{loanType.') || !types.length) return checkLink(pointer, l.href);
      for (const t of new Set(types.map((type) => fill(l.href, loanTypeVars(type))))) checkLink(pointer, t);
    });
  },
};
