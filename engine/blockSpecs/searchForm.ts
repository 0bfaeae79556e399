import { LOAN_TYPES } from '../site/loanTypes';
import { capitalizeFirst } from '../geo/names';
import { STATES } from '../geo/states';
import type { BlockSpec } from './types';

type Option = { value: string; label: string };

/** A loan type as a choice in a list: "Title loans", "Title loans near me" (two types never read the same). */
export const loanTypeOptionLabel = (t: keyof typeof LOAN_TYPES): string =>
  capitalizeFirst(LOAN_TYPES[t].nearMe ? `${LOAN_TYPES[t].plural} near me` : LOAN_TYPES[t].plural);

export const searchFormSpec: BlockSpec<'searchForm', { action: string; states: Option[]; loanTypes: Option[] }> = {
  // The brand may send each loan type to its own page (title loans to their state pages, say).
  searchTarget: (block, loanType) => block.hrefTemplateByLoanType?.[loanType] ?? block.hrefTemplate,
  data: (_block, { brand, path }) => ({
    action: path,
    states: STATES.map((s) => ({ value: s.slug, label: s.name })),
    loanTypes: brand.loanTypes.map((t) => ({ value: t, label: loanTypeOptionLabel(t) })),
  }),
};
