/**
 * The loan type in words, for templates, and the per-block loan-type filter. A layout used by
 * several loan types (e.g. every /{loanType}/location/{state} page) writes its text once:
 *
 *   "{loanType.name} in {state.name}"              → "Payday Loans Near Me in Texas"
 *   "Looking for {loanType.withArticle}?"          → "Looking for an installment loan?"
 *   "{loanType.article}"                            → "an" (installment loan), "a" (payday loan)
 *   "{loanType.pluralCapitalized} by city"         → "Title loans by city"
 *
 * and a block that only some loan types show lists them: "loanTypes": ["title-loans"].
 */
import type { LoanType } from '../../schemas/brand.types';
import { LOAN_TYPES } from './loanTypes';
import { capitalizeFirst } from '../geo/names';

const titleCase = (words: string) => words.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, c: string) => space + c.toUpperCase());

/** "a" or "an" before a word, by its first sound as written (vowel letter → "an"). */
export const indefiniteArticle = (word: string): 'a' | 'an' => (/^[aeiou]/i.test(word.trim()) ? 'an' : 'a');

/** The {loanType.*} template variables of a loan type, with their values. */
export function loanTypeVars(type: LoanType): Record<string, string> {
  const t = LOAN_TYPES[type];
  return {
    'loanType.singular': t.singular,
    'loanType.plural': t.plural,
    'loanType.slug': t.slug,
    'loanType.singularCapitalized': capitalizeFirst(t.singular),
    'loanType.pluralCapitalized': capitalizeFirst(t.plural),
    'loanType.title': titleCase(t.plural),
    'loanType.name': titleCase(t.slug.replace(/-/g, ' ')),
    'loanType.article': indefiniteArticle(t.singular),
    'loanType.withArticle': `${indefiniteArticle(t.singular)} ${t.singular}`,
  };
}

/** Every {loanType.*} variable name (the same for every loan type). */
export const LOAN_TYPE_VARS: readonly string[] = Object.keys(loanTypeVars('payday-loans'));

/** A block shows on a page unless it names loan types and the page's is not one of them. */
export const showsForLoanType = (block: { loanTypes?: readonly LoanType[] }, pageType: LoanType | undefined): boolean =>
  !block.loanTypes || (pageType !== undefined && block.loanTypes.includes(pageType));
