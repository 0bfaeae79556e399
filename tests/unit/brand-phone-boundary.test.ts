/**
 * libphonenumber's full metadata (engine/site/brandPhone.ts, ~150 KB of JavaScript) is for the
 * console, the validator and brand:new only: it must reach no browser and not the front door's
 * start-up. The front door (.next/front-door.mjs, compiled from engine/frontDoor/server.ts with the
 * block specs) builds the catalog and every brand's page models as it starts; brand and console
 * pages ship their components to browsers. Checked twice: run in a fresh process as the server
 * starts (Node's resolutions recorded), and on the import graph of every module that can reach a
 * browser — each page as Next splits it (what only getServerSideProps uses stays on the server),
 * the blocks and the browser-safe engine. tests/e2e/brand-phone-bundles.spec.ts reads the built
 * chunks themselves.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importGraph, importsOf, listSourceFiles, type ImportEdge } from '../support/importGraph';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const url = (file: string) => JSON.stringify(pathToFileURL(join(root, file)).href);
const PACKAGE = 'libphonenumber-js';
const READER = 'engine/site/brandPhone.ts';

// Starts the front door as server.mjs does (the module build-front-door.ts compiles, the catalog with
// the block specs, each brand's home page model, a published revision checked as brandLive.ts checks
// one), then the console's studio and its phone question; prints the libphonenumber modules resolved by each step.
const script = `
import { registerHooks } from 'node:module';
const resolved = new Set();
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); resolved.add(r.url); return r; } });
const phone = () => [...resolved].filter((u) => u.includes('/node_modules/${PACKAGE}/')).length;
const door = await import(${url('engine/frontDoor/server.ts')});
const { BLOCK_SPECS } = await import(${url('blocks/generated/specs.ts')});
const { buildPageModel } = await import(${url('engine/site/pageModel.ts')});
const { checkBrandDocument } = await import(${url('engine/site/brandOverlay.ts')});
const steps = { imported: phone() };
const catalog = door.getCatalog(BLOCK_SPECS);
for (const id of catalog.brands.keys()) await buildPageModel(catalog, id, '/');
const weloans = catalog.brands.get('weloans').brand;
const checked = checkBrandDocument('weloans', { ...weloans, organization: { ...weloans.organization, telephone: '+1-900-555-0100' } });
steps.served = phone();
const { studioRoute } = await import(${url('engine/console/studioApi.ts')});
const { checkAnswer } = await import(${url('engine/site/brandQuestions.ts')});
steps.premium = checkAnswer('phone', '+1-900-555-0100', { country: 'CA' }).message;
steps.console = phone();
console.log(JSON.stringify({ ...steps, studio: typeof studioRoute, problems: checked.problems.length }));
`;

/** Where a walk from `starts` meets the phone reader or the package, each as the chain of files that leads there. */
function reaches(starts: readonly string[], edgesOf: (file: string) => ImportEdge[]): string[] {
  const via = new Map<string, string | null>(starts.map((s) => [s, null]));
  const queue = [...starts];
  const found: string[] = [];
  const chain = (file: string): string => {
    const parts = [file];
    for (let f = via.get(file); f; f = via.get(f)) parts.unshift(f);
    return parts.join(' → ');
  };
  while (queue.length) {
    const file = queue.shift()!;
    for (const e of edgesOf(file)) {
      if (e.typeOnly) continue;
      if (e.to === null) {
        if (e.specifier === PACKAGE || e.specifier.startsWith(`${PACKAGE}/`)) found.push(`${chain(file)} → ${e.specifier}`);
        continue;
      }
      if (via.has(e.to)) continue;
      via.set(e.to, file);
      if (e.to === READER) found.push(chain(e.to));
      else queue.push(e.to);
    }
  }
  return found;
}

const SERVER_ONLY = new Set(['getServerSideProps', 'getStaticProps', 'getStaticPaths']);

/**
 * A page's imports as its browser chunk has them: Next drops getServerSideProps (and the static
 * ones) from the client build, then every declaration and import nothing left uses. Every name
 * the rest mentions counts as used (types too: more than Next keeps, never less).
 */
function clientImportsOf(file: string): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const declared = new Map<string, ts.Node>();
  const kept: ts.Node[] = [];
  const isServerOnly = (name: string | undefined) => !!name && SERVER_ONLY.has(name);
  for (const s of source.statements) {
    if (ts.isImportDeclaration(s)) continue;
    const exported = ts.canHaveModifiers(s) && !!ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        const name = ts.isIdentifier(d.name) ? d.name.text : undefined;
        if (isServerOnly(name)) continue;
        if (name) declared.set(name, d);
        if (exported || !name) kept.push(d);
      }
    } else if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name) {
      if (isServerOnly(s.name.text)) continue;
      declared.set(s.name.text, s);
      if (exported) kept.push(s);
    } else if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)) {
      const names = s.exportClause.elements.filter((e) => !isServerOnly(e.name.text));
      if (names.length || s.moduleSpecifier) kept.push(s);
    } else kept.push(s);
  }
  // the names the kept code mentions, following the file's own declarations they name
  const used = new Set<string>();
  const walked = new Set<ts.Node>();
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && !used.has(node.text)) {
      used.add(node.text);
      const d = declared.get(node.text);
      if (d && !walked.has(d)) {
        walked.add(d);
        visit(d);
      }
    }
    ts.forEachChild(node, visit);
  };
  for (const node of kept) {
    walked.add(node);
    visit(node);
  }
  const usedSpecifiers = new Set<string>();
  for (const s of source.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    const clause = s.importClause;
    const names = [
      ...(clause?.name ? [clause.name.text] : []),
      ...(clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings) ? [clause.namedBindings.name.text] : []),
      ...(clause?.namedBindings && ts.isNamedImports(clause.namedBindings)
        ? clause.namedBindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text)
        : []),
    ];
    // a side-effect import runs in the browser too
    if (!clause || names.some((n) => used.has(n))) usedSpecifiers.add(s.moduleSpecifier.text);
  }
  return importsOf(root, file).filter(
    (e) =>
      usedSpecifiers.has(e.specifier) ||
      !source.statements.some((s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === e.specifier),
  );
}

describe('libphonenumber’s full metadata, kept to the console', () => {
  it('is not loaded by the front door as it starts and serves, only by the console’s studio', { timeout: 120_000 }, async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    const steps = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(steps.imported).toBe(0);
    expect(steps.served).toBe(0);
    // the same walk sees it once the console reads a phone number: it would see it in the front door too
    expect(steps.premium).toMatch(/is a premium-rate number/);
    expect(steps.console).toBeGreaterThan(0);
  });

  it('reaches no module a browser runs, nor the front door’s', () => {
    const edges = importGraph(root, ['pages', 'engine', 'blocks', 'schemas']);
    const byFile = new Map<string, ImportEdge[]>();
    for (const e of edges) byFile.set(e.from, [...(byFile.get(e.from) ?? []), e]);
    const pages = listSourceFiles(root, 'pages').filter((f) => !f.startsWith('pages/api/'));
    // a page's own file as its browser chunk has it; what it imports, whole
    const clientEdges = (file: string) => (pages.includes(file) ? clientImportsOf(file) : (byFile.get(file) ?? []));
    const browser = [...pages, ...listSourceFiles(root, 'blocks'), ...listSourceFiles(root, 'engine/browser')];
    expect(pages).toContain('pages/_console/studio/new.tsx');
    expect(reaches(browser, clientEdges)).toEqual([]);
    // the front door's module and the brand page's server module, which it renders as it warms up
    const server = (file: string) => byFile.get(file) ?? [];
    expect(reaches(['engine/frontDoor/server.ts', 'blocks/generated/specs.ts', 'pages/_brand/[brand]/[[...path]].tsx'], server)).toEqual([]);
    // the walks find it where it is: the wizard's page on the server, and the studio's API
    expect(reaches(['pages/_console/studio/new.tsx'], server)).toEqual([`pages/_console/studio/new.tsx → engine/site/brandQuestions.ts → ${READER}`]);
    expect(reaches(['engine/console/studioApi.ts'], server).length).toBeGreaterThan(0);
  });
});
