/** Loan-type words for templates, the per-block loanTypes filter, and heroes per loan type. */
import { describe, expect, it } from 'vitest';
import { indefiniteArticle, loanTypeVars, showsForLoanType } from '../../engine/site/loanTypeText';
import { heroProblems } from '../../engine/site/brandChecks/layoutReuse';
import type { BlockType } from '../../schemas/brand.types';
import { fill } from '../../engine/site/templates';

describe('loan-type template variables', () => {
  it.each([
    ['payday-loans', 'Payday Loans', 'Payday Loans', 'a payday loan', 'Payday loans'],
    ['installment-loans', 'Installment Loans', 'Installment Loans', 'an installment loan', 'Installment loans'],
    ['cash-advance-near-me', 'Cash Advance Near Me', 'Cash Advances', 'a cash advance', 'Cash advances'],
    ['loans-near-me', 'Loans Near Me', 'Loans', 'a loan', 'Loans'],
  ] as const)('%s', (type, name, title, withArticle, pluralCapitalized) => {
    const vars = loanTypeVars(type);
    expect(fill('{loanType.name}|{loanType.title}|{loanType.withArticle}|{loanType.pluralCapitalized}', vars)).toBe(
      [name, title, withArticle, pluralCapitalized].join('|'),
    );
    expect(vars['loanType.slug']).toBe(type);
  });
  it('picks the article by the first letter', () => {
    expect([indefiniteArticle('installment loan'), indefiniteArticle('title loan'), indefiniteArticle('  equity loan')]).toEqual(['an', 'a', 'an']);
  });
});

describe('a block with loanTypes', () => {
  it('shows only on pages of those loan types', () => {
    const block = { loanTypes: ['title-loans'] as const };
    expect(showsForLoanType({ ...block, loanTypes: [...block.loanTypes] }, 'title-loans')).toBe(true);
    expect(showsForLoanType({ loanTypes: ['title-loans'] }, 'payday-loans')).toBe(false);
    expect(showsForLoanType({ loanTypes: ['title-loans'] }, undefined)).toBe(false);
    expect(showsForLoanType({}, undefined)).toBe(true);
  });
  it('heroes for different loan types may stand side by side; each page still gets one, first', () => {
    const blocks: { type: BlockType; loanTypes?: string[] }[] = [
      { type: 'hero', loanTypes: ['payday-loans'] },
      { type: 'hero', loanTypes: ['title-loans'] },
      { type: 'richText' },
    ];
    expect(heroProblems(blocks, ['payday-loans', 'title-loans'])).toEqual([]);
    expect(heroProblems(blocks, ['installment-loans'])).toEqual([
      [2, 'the first block must be a "hero" (on installment-loans pages): it holds the page\'s one <h1> heading'],
    ]);
    expect(heroProblems([{ type: 'hero' }, ...blocks], ['payday-loans'])).toEqual([
      [1, 'a page has one hero (on payday-loans pages); this is a second one (the first is block 0)'],
    ]);
  });
});
