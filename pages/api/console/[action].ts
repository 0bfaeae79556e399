/**
 * POST /api/console/{login,logout,reveal,review,totp,export,costs,users,settings,links,experiments} — the console's form posts, on the console
 * host only (engine/frontDoor/consolePath.ts). Each reads its own form (engine/console/forms.ts:
 * same-origin, form-encoded, capped) and answers 303 to the page to show next, or the export's
 * CSV: engine/console/formRoutes.ts, reviewRoute.ts, totpRoutes.ts, exportRoute.ts, userRoutes.ts, settingsRoutes.ts, signInLinkRoute.ts, experimentActions.ts; the cost upload is multipart (costUpload.ts).
 */
import type { IncomingMessage } from 'node:http';
import { costUploadRoute } from '../../../engine/console/costUpload';
import { experimentActionRoute } from '../../../engine/console/experimentActions';
import { exportAnswer } from '../../../engine/console/exportRoute';
import { refusedAnswer } from '../../../engine/console/formRefusals';
import { loginRoute, logoutRoute, revealRoute } from '../../../engine/console/formRoutes';
import { reviewRoute } from '../../../engine/console/reviewRoute';
import { totpRoute } from '../../../engine/console/totpRoutes';
import { usersRoute } from '../../../engine/console/userRoutes';
import { settingsRoute } from '../../../engine/console/settingsRoutes';
import { signInLinkRoute } from '../../../engine/console/signInLinkRoute';
import type { ApiAnswer } from '../../../engine/http/api';
import { route } from '../../../engine/http/route';
import type { Store } from '../../../engine/store/db';

export const config = { api: { bodyParser: false } };

const ACTIONS = new Map<string, (db: Store, req: IncomingMessage) => Promise<ApiAnswer>>([
  ['login', loginRoute],
  ['logout', logoutRoute],
  ['reveal', revealRoute],
  ['review', reviewRoute],
  ['totp', (db, req) => totpRoute(db, req)],
  ['export', exportAnswer],
  ['costs', costUploadRoute],
  ['users', usersRoute],
  ['settings', settingsRoute],
  ['links', signInLinkRoute],
  ['experiments', (db, req) => experimentActionRoute(db, req)],
]);

/** The form post's action's name, from the path's last segment (read from the URL, so the route runs the same on a bare node:http server). */
const nameOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://x').pathname.split('/').pop() ?? '';
const actionOf = (req: IncomingMessage) => ACTIONS.get(nameOf(req));

export default route({ unavailable: (req) => (actionOf(req) ? undefined : 'Not found'), methods: ['POST'] }, async ({ req, store }) => {
  const action = actionOf(req)!;
  try {
    return await action(await store(), req);
  } catch (err) {
    // an expired form or one the role may not send: a browser is shown the Refused page, an API client keeps the 403
    const refused = refusedAnswer(err, req.headers, nameOf(req));
    if (refused) return refused;
    throw err;
  }
});
