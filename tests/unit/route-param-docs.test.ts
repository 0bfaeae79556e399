import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARAM_KINDS } from '../../engine/site/routeParams';
import { routeParamDocs } from '../../scripts/routeParamDocs';

describe('the route parameter lists in the docs are written from engine/site/routeParams.ts', () => {
  const fresh = routeParamDocs();
  it.each(Object.keys(fresh))('%s is up to date', (file) => {
    expect(readFileSync(join(process.cwd(), file), 'utf8'), `${file} is stale: run npm run gen and commit the result`).toBe(fresh[file]);
  });
  it.each(Object.keys(fresh))('%s names every parameter', (file) => {
    for (const kind of PARAM_KINDS) expect(fresh[file]).toMatch(new RegExp(`\\{${kind}\\??\\}`));
  });
});
