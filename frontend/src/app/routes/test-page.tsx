import { useEffect, useState } from 'react';
import { signedInAs } from '../../lib/auth-session';
import { SampleSettingsScreen } from './sample-settings-screen';

/** /test (operator §2 Routes): a plain page that shows whether this browser holds a session, and the unrouted sample settings screen. */
export function TestPage() {
  // undefined while Amplify answers, null when signed out.
  const [loginId, setLoginId] = useState<string | null | undefined>(undefined);

  useEffect(() => {
    let active = true;
    void signedInAs().then((id) => {
      if (active) setLoginId(id);
    });
    return () => {
      active = false;
    };
  }, []);

  return (
    <main className="page-message">
      <h1>Test</h1>
      <p role="status">{loginId === undefined ? 'Checking sign-in…' : loginId === null ? 'Not signed in' : `Signed in as ${loginId}`}</p>
      <SampleSettingsScreen />
    </main>
  );
}
