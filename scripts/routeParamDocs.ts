/**
 * The lists of route parameters in the README and in schemas/brand.base.json, written from
 * the parameter table (engine/site/routeParams.ts). `npm run gen` rewrites them;
 * tests/unit/route-param-docs.test.ts fails when they are stale.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPTIONAL_PARAM, PARAM_KINDS, ROUTE_PARAMS, TEMPLATE_VARS, type ParamKind, type RouteParamKind } from '../engine/site/routeParams';

const root = process.cwd();
const written = (kind: ParamKind) => (kind === OPTIONAL_PARAM ? `{${kind}?}` : `{${kind}}`);

/** The placeholders a parameter gives its pages (a {slug} route with "content" gives the item's). */
function placeholdersOf(kind: ParamKind): string[] {
  const gives = (ROUTE_PARAMS[kind] as RouteParamKind).gives;
  const families = typeof gives === 'function' ? gives({ content: 'article' }) : gives;
  return families.flatMap((f) => TEMPLATE_VARS[f].names.map((n) => `{${n}}`));
}

const README_START = '<!-- route-params: written by `npm run gen` from engine/site/routeParams.ts -->';
const README_END = '<!-- /route-params -->';

export function readmeTable(indent: string): string {
  const rows = PARAM_KINDS.map((k) => {
    const def = ROUTE_PARAMS[k] as RouteParamKind;
    return `| \`${written(k)}\` | ${def.doc} | \`${def.example}\` | ${placeholdersOf(k)
      .map((p) => `\`${p}\``)
      .join(', ')} |`;
  });
  return [README_START, '| parameter | what it is | e.g. | placeholders it gives |', '|---|---|---|---|', ...rows, README_END]
    .map((l) => indent + l)
    .join('\n');
}

const pathDescription = () =>
  `Path pattern. Parameters in braces, each checked against real data (a value that names nothing real gives the 404 page): ${PARAM_KINDS.map((k) => `${written(k)} (${(ROUTE_PARAMS[k] as RouteParamKind).doc}, e.g. ${(ROUTE_PARAMS[k] as RouteParamKind).example})`).join('; ')}.`;
const pathHint = () => `a lowercase path such as /payday-loans or /location/{stateCode}/{city}; parameters in braces: ${PARAM_KINDS.map(written).join(', ')}`;

/** file → its text with the lists brought up to date. */
export function routeParamDocs(): Record<string, string> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md: the markers ${README_START} … ${README_END} are missing`);
  const lineStart = readme.lastIndexOf('\n', start) + 1;
  const indent = readme.slice(lineStart, start);
  const newReadme = readme.slice(0, lineStart) + readmeTable(indent) + readme.slice(end + README_END.length);

  const schemaFile = 'schemas/brand.base.json';
  const schema = readFileSync(join(root, schemaFile), 'utf8');
  const pathLine = /^( *"path": \{ "type": "string", "pattern": "\^\/\(\(.*"patternHint": )("(?:[^"\\]|\\.)*")(, "description": )("(?:[^"\\]|\\.)*")( \},?)$/m;
  if (!pathLine.test(schema)) throw new Error(`${schemaFile}: the route's "path" property (one line, pattern, patternHint, description) was not found`);
  const newSchema = schema.replace(
    pathLine,
    (_, a: string, _hint: string, b: string, _desc: string, c: string) => a + JSON.stringify(pathHint()) + b + JSON.stringify(pathDescription()) + c,
  );
  return { 'README.md': newReadme, [schemaFile]: newSchema };
}
