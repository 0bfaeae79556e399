/**
 * The engine's shape, as the next engineer meets it: every module in a wing, the wings in one order
 * (eslint.config.mjs ENGINE_WINGS, lowest first) and every value import running down it, the
 * browser-safe set free of server code, and blocks' components reaching into the engine only there.
 * ESLint says the same per file; this reads the whole graph, dynamic imports included.
 */
import { readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_WINGS } from '../../eslint.config.mjs';
import { importGraph, type ImportEdge } from '../support/importGraph';

const root = process.cwd();
const wings: readonly string[] = ENGINE_WINGS;

/** The wing of an engine file. */
function wingOf(file: string): string | undefined {
  const [, wing, ...rest] = file.split('/');
  if (!rest.length) return undefined;
  return wing;
}

const engineEdges = importGraph(root, ['engine']);
const show = (e: ImportEdge) => `${e.from} → ${e.to ?? e.specifier}`;
/** Value imports from one wing into another (or into engine/'s root). */
const crossing = engineEdges.filter((e) => !e.typeOnly && e.to?.startsWith('engine/') && wingOf(e.from) !== wingOf(e.to));

describe("the engine's wings", () => {
  it('engine/ has no loose files: every module lives in a wing', () => {
    const loose = readdirSync(join(root, 'engine')).filter((name) => statSync(join(root, 'engine', name)).isFile());
    expect(loose).toEqual([]);
  });

  it('every folder of engine/ is a wing with its place in the order', () => {
    const folders = readdirSync(join(root, 'engine')).filter((name) => statSync(join(root, 'engine', name)).isDirectory());
    expect(folders.sort()).toEqual([...wings].sort());
  });

  it('no cycle between wings', () => {
    const next = new Map<string, Set<string>>();
    for (const e of crossing) {
      const [from, to] = [wingOf(e.from) ?? '(engine root)', wingOf(e.to!) ?? '(engine root)'];
      next.set(from, new Set([...(next.get(from) ?? []), to]));
    }
    const cycles: string[] = [];
    const walk = (wing: string, path: string[]) => {
      for (const to of next.get(wing) ?? []) {
        if (to === path[0]) cycles.push([...path, to].join(' → '));
        else if (!path.includes(to) && to > path[0]!) walk(to, [...path, to]); // each cycle once, from its least wing
      }
    };
    for (const wing of next.keys()) walk(wing, [wing]);
    expect(cycles).toEqual([]);
  });

  it('a wing imports only the wings below it in the order', () => {
    const upward = crossing.filter((e) => {
      const [from, to] = [wings.indexOf(wingOf(e.from) ?? ''), wings.indexOf(wingOf(e.to!) ?? '')];
      return from < 0 || to < 0 || to > from;
    });
    expect(upward.map(show)).toEqual([]);
  });

  it('the sale imports leads, the outbox imports both, and nothing imports back (types included)', () => {
    const back = engineEdges.filter(
      (e) =>
        (e.from.startsWith('engine/leads/') && /^engine\/(sale|outbox)\//.test(e.to ?? '')) ||
        (e.from.startsWith('engine/sale/') && e.to?.startsWith('engine/outbox/')),
    );
    expect(back.map(show)).toEqual([]);
  });

  it('engine/ never imports blocks/, pages/ or scripts/', () => {
    expect(engineEdges.filter((e) => /^(blocks|pages|scripts)\//.test(e.to ?? '')).map(show)).toEqual([]);
  });

  it('engine/browser/ holds no server code: no Node module, and no other wing but for types', () => {
    const nodeModules = new Set(builtinModules);
    const server = engineEdges.filter(
      (e) =>
        e.from.startsWith('engine/browser/') &&
        !e.typeOnly &&
        (e.specifier.startsWith('node:') || nodeModules.has(e.specifier) || (e.to?.startsWith('engine/') && !e.to.startsWith('engine/browser/'))),
    );
    expect(server.map(show)).toEqual([]);
  });

  it("blocks' components import from engine/ only engine/browser/ (types from anywhere)", () => {
    const components = importGraph(root, ['blocks']).filter((e) => !/^blocks\/([^/]+\/spec\.ts|generated\/)/.test(e.from));
    const reach = components.filter((e) => !e.typeOnly && e.to?.startsWith('engine/') && !e.to.startsWith('engine/browser/'));
    expect(reach.map(show)).toEqual([]);
  });
});
