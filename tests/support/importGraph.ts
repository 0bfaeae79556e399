// The import graph of the repository's own TypeScript and JavaScript files, read with the TypeScript
// parser: every static import and re-export, every `import()` and `require()` with a literal path, and
// whether an import brings in only types (those vanish at build time, so they never carry code across
// a boundary).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** repo-relative path of the importing file */
  from: string;
  /** the specifier as written */
  specifier: string;
  /** repo-relative path of the resolved file, or null for a package or an unresolved path */
  to: string | null;
  /** true when only types cross (import type, export type, or every named binding marked `type`) */
  typeOnly: boolean;
}

const sourceExtensions = ['.ts', '.tsx', '.mts', '.cts', '.mjs', '.cjs', '.js', '.jsx'];

export function listSourceFiles(root: string, folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (sourceExtensions.some((ext) => name.endsWith(ext)) && !name.endsWith('.d.ts')) out.push(relative(root, full));
    }
  };
  const start = join(root, folder);
  if (existsSync(start)) walk(start);
  return out.sort();
}

/** Resolves a relative specifier the way the bundler does (extension optional, folder index). */
export function resolveRelative(root: string, fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(root, dirname(fromFile), specifier);
  const stripped = base.replace(/\.(js|mjs|cjs|jsx)$/, '');
  const candidates = [base, ...sourceExtensions.map((ext) => stripped + ext), ...sourceExtensions.map((ext) => join(base, 'index' + ext))];
  for (const candidate of candidates) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate);
  }
  return null;
}

function onlyTypes(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false; // a side-effect import runs code
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

export function importsOf(root: string, file: string): ImportEdge[] {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean) => edges.push({ from: file, specifier, to: resolveRelative(root, file, specifier), typeOnly });
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, onlyTypes(node.importClause));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier.text, node.isTypeOnly || (!!named && named.length > 0 && named.every((element) => element.isTypeOnly)));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (isImport || isRequire) add((node.arguments[0] as ts.StringLiteralLike).text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

export function importGraph(root: string, folders: string[]): ImportEdge[] {
  return folders.flatMap((folder) => listSourceFiles(root, folder)).flatMap((file) => importsOf(root, file));
}
