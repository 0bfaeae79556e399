import { describe, expect, it } from 'vitest';
import { compileRoute, isDisabled, matchRoute, RoutePatternError } from '../../engine/site/routes';

const specs = [
  { path: '/', layout: 'home' },
  { path: '/answers/{page?}', layout: 'answers' },
  { path: '/blog/{list}/{page?}', layout: 'blog' },
  { path: '/location/{stateCode}', layout: 'state' },
  { path: '/location/{stateCode}/{city}', layout: 'city' },
  { path: '/{loanType}/location/{state}-cities', layout: 'stateCities' },
  { path: '/{loanType}/location/cities-start-with-{letter}/{page?}', layout: 'letter' },
  { path: '/{loanType}/location/{state}', layout: 'state2' },
  { path: '/{loanType}/location/{city}', layout: 'city2' },
];
const routes = specs.map(compileRoute);
const opts = { loanTypes: ['payday-loans', 'title-loans'] as const, disabledPaths: ['/title-loans/location/search', '/blog/old/*'] };
const match = (path: string) => {
  const m = matchRoute(routes, path, { loanTypes: [...opts.loanTypes], disabledPaths: opts.disabledPaths });
  return (
    m && {
      layout: m.route.layout,
      state: m.params.state?.slug,
      city: m.params.city?.slug,
      page: m.params.page,
      letter: m.params.letter,
      list: m.params.list,
      loanType: m.params.loanType,
    }
  );
};

describe('matchRoute: valid parameters', () => {
  it.each([
    ['/', { layout: 'home' }],
    ['/answers', { layout: 'answers' }],
    ['/answers/2', { layout: 'answers', page: 2 }],
    ['/answers/9999', { layout: 'answers', page: 9999 }],
    ['/blog/payday-basics', { layout: 'blog', list: 'payday-basics' }],
    ['/blog/payday-basics/12', { layout: 'blog', list: 'payday-basics', page: 12 }],
    ['/location/tx', { layout: 'state', state: 'texas' }],
    ['/location/dc', { layout: 'state', state: 'district-of-columbia' }],
    ['/location/tx/houston', { layout: 'city', state: 'texas', city: 'houston' }],
    ['/payday-loans/location/new-york-cities', { layout: 'stateCities', loanType: 'payday-loans', state: 'new-york' }],
    ['/title-loans/location/cities-start-with-b', { layout: 'letter', loanType: 'title-loans', letter: 'b' }],
    ['/title-loans/location/cities-start-with-b/3', { layout: 'letter', loanType: 'title-loans', letter: 'b', page: 3 }],
    ['/payday-loans/location/district-of-columbia', { layout: 'state2', loanType: 'payday-loans', state: 'district-of-columbia' }],
    ['/payday-loans/location/chicago', { layout: 'city2', loanType: 'payday-loans', city: 'chicago' }],
  ])('%s', (path, expected) => {
    expect(match(path)).toEqual(expect.objectContaining(expected));
  });
});

describe('matchRoute: invalid parameters give no match (→ the brand 404)', () => {
  it.each([
    ['/answers/1', 'page 1 is the list itself'],
    ['/answers/01', 'leading zero'],
    ['/answers/0', 'zero'],
    ['/answers/10000', 'above 9999'],
    ['/answers/two', 'not a number'],
    ['/title-loans/location/cities-start-with-aa', 'two letters'],
    ['/title-loans/location/cities-start-with-B', 'upper case letter'],
    ['/title-loans/location/cities-start-with-1', 'digit instead of letter'],
    ['/location/zz', 'unknown state code'],
    ['/location/pr', 'territory, not a state'],
    ['/location/tx/not-a-real-city-xyz', 'unknown city'],
    ['/location/tx/chicago', 'city of another state'],
    ['/payday-loans/location/atlantis-cities', 'unknown state slug'],
    ['/installment-loans/location/texas', 'loan type the brand does not offer'],
    ['/payday-loans/location/atlantis', 'neither a state nor a city'],
    ['/title-loans/location/search', 'disabled path'],
    ['/blog/old/2', 'disabled prefix'],
    ['/blog/Payday', 'upper case list slug'],
    ['/location/tx/', 'trailing slash'],
    ['/nowhere', 'no route'],
    ['/' + 'a'.repeat(600), 'too long'],
  ])('%s (%s)', (path) => {
    expect(match(path)).toBeUndefined();
  });
});

describe('compileRoute rejects bad patterns', () => {
  it.each([
    [
      '/x/{foo}',
      'unknown parameter {foo} (known: {state}, {stateCode}, {city}, {cityState}, {letter}, {page}, {list}, {slug}, {loanType}, {letterGroup}, {amount}, {store}, {page?})',
    ],
    ['/x/{page?}/y', '{page?} can only be the last part of a path'],
    ['/x/{letter?}', 'only {page?} may be optional, as a whole last part of the path (found {letter?})'],
    ['/x/{state}/{state}', 'parameter {state} appears twice'],
    ['/x/{state}{city}', 'two parameters must be separated by text in "{state}{city}"'],
    ['/x/{state', '"{" without "}" in "{state"'],
    ['/x/{state}/{stateCode}', 'use one of {state}, {stateCode} and {cityState}, not {state} and {stateCode}'],
    ['/x/{cityState}/{stateCode}', 'use one of {state}, {stateCode} and {cityState}, not {cityState} and {stateCode}'],
  ])('%s', (path, message) => {
    expect(() => compileRoute({ path, layout: 'x' }, 0)).toThrow(new RoutePatternError(message));
  });
});

describe('isDisabled', () => {
  it('matches exact paths and /* prefixes only', () => {
    expect(isDisabled('/a/b', ['/a/b'])).toBe(true);
    expect(isDisabled('/a/bc', ['/a/b'])).toBe(false);
    expect(isDisabled('/a', ['/a/*'])).toBe(true);
    expect(isDisabled('/a/x/y', ['/a/*'])).toBe(true);
    expect(isDisabled('/ab', ['/a/*'])).toBe(false);
  });
});

describe('matchRoute: the parameter kinds of the other route schemes', () => {
  const more = [
    { path: '/city/{letter}/{page?}', layout: 'letter' },
    { path: '/city/{cityState}', layout: 'city' },
    { path: '/directory/{letterGroup}', layout: 'directory' },
    { path: '/borrow-money/{amount}-dollar-loan', layout: 'amount' },
    { path: '/loans-near-me/lending-companies/{store}', layout: 'store' },
    { path: '/{loanType}/{state}-cities', layout: 'stateCities' },
    { path: '/{loanType}/cities-that-start-with-{letter}/{page?}', layout: 'titleLetter' },
    { path: '/{loanType}/{state}', layout: 'titleState' },
    { path: '/{loanType}/{city}', layout: 'titleCity' },
  ].map(compileRoute);
  const m = (path: string) => {
    const r = matchRoute(more, path, { loanTypes: ['title-loans', 'title-loans-near-me'] });
    return (
      r && {
        layout: r.route.layout,
        state: r.params.state?.code,
        city: r.params.city?.slug,
        letter: r.params.letter,
        page: r.params.page,
        group: r.params.letterGroup,
        amount: r.params.amount,
        store: r.params.store?.name,
      }
    );
  };

  it.each([
    ['/city/houston-tx', { layout: 'city', city: 'houston', state: 'tx' }],
    ['/city/new-york-ny', { layout: 'city', city: 'new-york', state: 'ny' }],
    ['/city/s', { layout: 'letter', letter: 's' }],
    ['/city/s/2', { layout: 'letter', letter: 's', page: 2 }],
    ['/directory/ijk', { layout: 'directory', group: 'ijk' }],
    ['/directory/other', { layout: 'directory', group: 'other' }],
    ['/borrow-money/500-dollar-loan', { layout: 'amount', amount: 500 }],
    ['/borrow-money/2000-dollar-loan', { layout: 'amount', amount: 2000 }],
    ['/loans-near-me/lending-companies/titlemax', { layout: 'store', store: 'TitleMax' }],
    ['/title-loans/texas-cities', { layout: 'stateCities', state: 'tx' }],
    ['/title-loans-near-me/cities-that-start-with-q', { layout: 'titleLetter', letter: 'q' }],
    ['/title-loans/new-york', { layout: 'titleState', state: 'ny' }],
    ['/title-loans/chicago', { layout: 'titleCity', city: 'chicago' }],
  ])('%s', (path, expected) => {
    expect(m(path)).toEqual(expect.objectContaining(expected));
  });

  it.each([
    ['/city/houston-ca', 'Houston is not a California city in the data'],
    ['/city/houston', 'no state code'],
    ['/city/houston-zz', 'unknown state code'],
    ['/city/x/9999', 'past the last page of cities starting with x'],
    ['/directory/e', 'e is filed under ef'],
    ['/directory/xyz', 'not a letter group'],
    ['/borrow-money/400-dollar-loan', 'not one of the amounts'],
    ['/borrow-money/0500-dollar-loan', 'leading zero'],
    ['/loans-near-me/lending-companies/acme-cash', 'not a store brand'],
    ['/title-loans/atlantis', 'neither state nor city'],
    ['/title-loans/atlantis-cities', 'unknown state'],
  ])('%s gives no match (%s)', (path) => {
    expect(m(path)).toBeUndefined();
  });
});
