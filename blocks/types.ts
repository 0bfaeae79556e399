import type { BlockType } from '../schemas/brand.types';
import type { BrandView, ResolvedBlockOf } from '../engine/site/model';

export interface BlockProps<K extends BlockType> {
  block: ResolvedBlockOf<K>;
  brand: BrandView;
}
