/**
 * Checks on how layouts are reused: a brand's own layout may not silently shadow a shared one
 * of the same name, and a block's "loanTypes" filter must name loan types the layout's routes
 * actually have (otherwise the block never shows, which is always a mistake); a route gives
 * exactly the parameters its layout writes ({param.name}, engine/site/layoutParams.ts), and true or
 * false only for its switches ("when").
 */
import type { BlockType, Brand } from '../../../schemas/brand.types';
import { specOf } from '../../blockSpecs';
import { blockShows, layoutParamNames, layoutSwitchNames } from '../layoutParams';
import type { CompiledRoute } from '../routes';
import { loanTypesOfRoute } from '../routeLoanTypes';
import { encodePointer } from '../../validate/locate';
import type { FileProblem, LayoutSource } from './semantic';

export function checkShadowedLayouts(brand: Brand, file: string, shared: ReadonlyMap<string, LayoutSource>): FileProblem[] {
  const problems: FileProblem[] = [];
  for (const [name, layout] of Object.entries(brand.layouts ?? {})) {
    const other = shared.get(name);
    if (other && !layout.overrides) {
      problems.push({
        file,
        pointer: encodePointer(['layouts', name]),
        message: `layout "${name}" has the name of the shared layout ${other.file}, which it hides for this brand; rename it, delete it and use the shared one, or add "overrides": true if replacing it is intended`,
      });
    }
    if (!other && layout.overrides) {
      problems.push({
        file,
        pointer: encodePointer(['layouts', name, 'overrides']),
        message: `there is no shared layout "${name}" in brands/layouts/ to override; remove "overrides"`,
      });
    }
  }
  return problems;
}

/** The loan types a route's pages can have: its fixed one, or every one its {loanType} takes. */

export function checkLoanTypeFilters(source: LayoutSource, routes: readonly CompiledRoute[], brand: Brand): FileProblem[] {
  const problems: FileProblem[] = [];
  source.layout.blocks.forEach((block, i) => {
    if (!block.loanTypes) return;
    // a switched block is judged by the routes that show it; a brand whose routes all leave it out never shows it, by choice
    const showing = routes.filter((r) => blockShows(block, r.layoutParams));
    if (!showing.length) return;
    const reachable = new Set(showing.flatMap((r) => loanTypesOfRoute(r, brand)));
    const at = `${source.pointer}/blocks/${i}/loanTypes`;
    if (!reachable.size) {
      const route = showing[0]!;
      problems.push({
        file: source.file,
        pointer: at,
        message: `this block shows only for some loan types, but route "${route.path}" has no loan type ({loanType} in its path or "loanType"), so it would never show`,
      });
      return;
    }
    const never = block.loanTypes.filter((t) => !reachable.has(t));
    if (never.length === block.loanTypes.length) {
      problems.push({
        file: source.file,
        pointer: at,
        message: `no route of brand "${brand.id}" using this layout has loan type ${never.map((t) => `"${t}"`).join(' or ')}, so this block never shows (its routes have: ${[...reachable].join(', ')})`,
      });
    }
  });
  return problems;
}

/**
 * The heroes a page of each loan type gets: the first block shown must be a hero, and only
 * one hero may show. Returns the problems as [block index, message] pairs.
 */
export function heroProblems(
  blocks: readonly { type: BlockType; loanTypes?: readonly string[] }[],
  pageTypes: readonly (string | undefined)[],
): [number, string][] {
  const found = new Map<number, string>();
  for (const pageType of pageTypes.length ? pageTypes : [undefined]) {
    const shown = blocks.flatMap((b, i) => (!b.loanTypes || (pageType && b.loanTypes.includes(pageType)) ? [{ b, i }] : []));
    const label = pageType ? ` (on ${pageType} pages)` : '';
    if (shown[0] && !specOf(shown[0].b.type).pageHeading)
      found.set(shown[0].i, `the first block must be a "hero"${label}: it holds the page's one <h1> heading`);
    const heroes = shown.filter((s) => specOf(s.b.type).pageHeading);
    for (const extra of heroes.slice(1)) found.set(extra.i, `a page has one hero${label}; this is a second one (the first is block ${heroes[0]!.i})`);
  }
  return [...found];
}

/** The switches of the blocks that write {param.name}, as `"when": "x"`. */
const switchesOf = (layout: LayoutSource['layout'], name: string) =>
  [...new Set(layout.blocks.filter((b) => b.when && layoutParamNames(b).includes(name)).map((b) => `"when": "${b.when}"`))].join(', ');

/**
 * Each route gives every text parameter its layout writes in the blocks it shows (a missing one
 * would show "{param.x}" to a borrower), true or false for its switches ("when": a switch left out is off), and no other
 * name (a value nothing uses is a mistake, often a misspelt name). A name is either text or a
 * switch, never both.
 */
export function checkLayoutParams(source: LayoutSource, routes: readonly CompiledRoute[], brandFile: string): FileProblem[] {
  const problems: FileProblem[] = [];
  const uses = layoutParamNames(source.layout);
  const switches = layoutSwitchNames(source.layout);
  source.layout.blocks.forEach((block, i) => {
    if (block.when && uses.includes(block.when))
      problems.push({
        file: source.file,
        pointer: `${source.pointer}/blocks/${i}/when`,
        message: `"${block.when}" is already a text parameter of this layout ({param.${block.when}}): give the switch another name`,
      });
  });
  const wrote = (uses.map((n) => `{param.${n}}`).join(', ') || 'none') + (switches.length ? `; its switches: ${switches.map((n) => `"${n}"`).join(', ')}` : '');
  for (const route of routes) {
    const given = Object.entries(route.layoutParams ?? {});
    // the text of a block the route switches off is not needed (nor shown)
    const shown = { ...source.layout, blocks: source.layout.blocks.filter((b) => blockShows(b, route.layoutParams)) };
    const needed = layoutParamNames(shown);
    const missing = needed.filter((name) => !Object.hasOwn(route.layoutParams ?? {}, name));
    if (missing.length) {
      problems.push({
        file: brandFile,
        pointer: encodePointer(['routes', route.index]),
        message: `layout "${route.layout}" writes ${missing.map((n) => `{param.${n}}`).join(', ')}: give ${missing.length > 1 ? 'their' : 'its'} text in this route's "layoutParams"`,
      });
    }
    for (const [name, value] of given) {
      const pointer = encodePointer(['routes', route.index, 'layoutParams', name]);
      const isSwitch = switches.includes(name);
      if (!isSwitch && !uses.includes(name))
        problems.push({
          file: brandFile,
          pointer,
          message: `layout "${route.layout}" has no {param.${name}}, so this value shows nowhere (it writes: ${wrote}); remove it`,
        });
      else if (isSwitch && typeof value !== 'boolean')
        problems.push({
          file: brandFile,
          pointer,
          message: `"${name}" is a switch of layout "${route.layout}" ("when": "${name}" shows a block on some pages): give true to show it, or leave it out, not text`,
        });
      else if (!isSwitch && !needed.includes(name))
        problems.push({
          file: brandFile,
          pointer,
          message: `layout "${route.layout}" writes {param.${name}} only in blocks this route switches off (${switchesOf(source.layout, name)}), so this value shows nowhere; remove it`,
        });
      else if (!isSwitch && typeof value !== 'string')
        problems.push({
          file: brandFile,
          pointer,
          message: `"${name}" is text in layout "${route.layout}" ({param.${name}}): give the text to show, not ${String(value)}`,
        });
    }
  }
  return problems;
}

/** A hero holds the page's one <h1> heading, so every page of its layout has it: it cannot be switched off ("when"). */
export function checkSwitchedBlocks(source: LayoutSource): FileProblem[] {
  return source.layout.blocks.flatMap((block, i) =>
    block.when && specOf(block.type).pageHeading
      ? [
          {
            file: source.file,
            pointer: `${source.pointer}/blocks/${i}/when`,
            message: `a ${block.type} holds the page's one <h1> heading, so every page of the layout shows it: remove "when" (to show another heading on some pages, use a layout parameter)`,
          },
        ]
      : [],
  );
}
