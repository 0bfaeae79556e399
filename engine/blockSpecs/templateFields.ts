/**
 * Link templates in blocks: fields marked "x-template" in a block's schema hold a link per
 * item of a list (each state, city, letter…). They are filled per item, not with the page's
 * variables, and validation checks that they give real pages. Read from the generated types.
 */
import { BLOCK_TEMPLATE_FIELDS, type BlockType } from '../../schemas/brand.types';
import type { ItemKind } from '../site/routeParams';

/** A schema naming an item kind that engine/site/routeParams.ts does not know fails `tsc` here. */
export const TEMPLATE_FIELDS: Partial<Record<BlockType, Readonly<Record<string, ItemKind>>>> = BLOCK_TEMPLATE_FIELDS;

const NONE: ReadonlySet<string> = new Set();
const namesByType = new Map(Object.entries(TEMPLATE_FIELDS).map(([type, fields]) => [type, new Set(Object.keys(fields))]));
/** The fields of a block type that are link templates. */
export const templateFieldsOf = (type: BlockType): ReadonlySet<string> => namesByType.get(type) ?? NONE;
