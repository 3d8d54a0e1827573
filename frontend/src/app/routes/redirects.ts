import { replace } from 'react-router-dom';
import { paths } from '../../config/paths';
import { getSession } from '../../lib/auth-session';
import { landingPath } from '../../lib/role-landing';

/** /redirect (operator §2 Routes): the signed-in user's landing page by role; no session → login. */
export const toRoleLanding = async (): Promise<Response> => replace(landingPath(await getSession()));

/** /admin, /admin/home, /admin/users (operator §2 Routes): the admin users screen. */
export const toAdminUsers = (): Response => replace(paths.users.to());
