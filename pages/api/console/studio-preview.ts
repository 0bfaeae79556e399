/**
 * POST /api/console/studio-preview {brand, path} with X-CSRF-Token — a signed address of the
 * draft's preview for the signed-in editor, good for a few minutes (engine/console/studioPreview.ts).
 */
import { previewLinkAnswer, previewSchema } from '../../../engine/console/studioPreview';
import { json, route } from '../../../engine/http/route';
import type { ConsoleStudioPreview } from '../../../schemas/api.types';

export const config = { api: { bodyParser: false } };

export default route({ methods: ['POST'], body: json<ConsoleStudioPreview>(previewSchema, 2048) }, async ({ req, body, store }) =>
  previewLinkAnswer(await store(), req, body),
);
