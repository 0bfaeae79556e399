/**
 * Which pages ask the browser for the visitor's position ("Use my location" in a locationSearch
 * block): those, and only those, should send `Permissions-Policy: geolocation=(self)`.
 */
import type { Layout } from '../../schemas/brand.types';
import { specOf, type BlockSpecs } from './blockSpec';

export const pageUsesGeolocation = (layout: Pick<Layout, 'blocks'>, specs: BlockSpecs): boolean =>
  layout.blocks.some((b) => !!specOf(specs, b.type).asksGeolocation?.(b));
