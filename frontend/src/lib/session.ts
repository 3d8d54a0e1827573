import type { Role } from '../../../shared/roles';

/** A signed-in person as the web app knows them (auth-session.ts keeps it; amplify-session.ts reads it from Amplify). */
export interface Session {
  readonly accessToken: string;
  readonly groups: readonly string[];
  readonly role: Role;
  /** An operator whose token says no authenticator app is enrolled: the app sends them to enrol one. */
  readonly needsTotp?: boolean;
}
