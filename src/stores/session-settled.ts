import { useEffect, useState } from 'react';
import { when } from 'mobx';
import type { SessionStore } from './SessionStore';

/** How long a route waits for the session (and the memberships guard 3 needs) before deciding anyway. */
export const SESSION_WAIT_MS = 5000;

/** Resolves once the session is known: logged out, or logged in with its memberships read. */
export async function sessionSettled(session: SessionStore): Promise<void> {
  try {
    await when(() => session.status === 'ready' && (!session.isLoggedIn || session.membershipTables !== null), {
      timeout: SESSION_WAIT_MS,
    });
  } catch {
    // Memberships failed to load or the API is slow: decide with what is known.
  }
}

/** False until sessionSettled() resolves for this screen visit. */
export function useSessionSettled(session: SessionStore): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    let live = true;
    void sessionSettled(session).then(() => {
      if (live) setSettled(true);
    });
    return () => {
      live = false;
    };
  }, [session]);
  return settled;
}
