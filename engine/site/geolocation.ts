/**
 * Which pages ask the browser for the visitor's position ("Use my location" in a locationSearch
 * block): those, and only those, should send `Permissions-Policy: geolocation=(self)`.
 */
import type { Layout } from '../../schemas/brand.types';
import { specOf } from '../blockSpecs';

export const pageUsesGeolocation = (layout: Pick<Layout, 'blocks'>): boolean => layout.blocks.some((b) => !!specOf(b.type).asksGeolocation?.(b));
