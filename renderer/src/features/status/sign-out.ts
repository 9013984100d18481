import { page, SIGNED_OUT_PAGE } from '../../bridge/page.js';

/**
 * Signing out of a team server (issue 20): POST /api/signout on this origin with the session cookie
 * ends this session, or with `everywhere` every session of the person (their other browsers too);
 * then the sign-in page, which says that they signed out — through the identity provider's own
 * sign-out first for a person who signed in with it (issue 35). An answer of 401 means the session had
 * ended already: the sign-in page is where they belong either way. Only a failure to reach the
 * server (or a refusal) is thrown, for the caller to say.
 */
export async function signOut(everywhere: boolean): Promise<void> {
  const res = await page.fetch('/api/signout', {
    method: 'POST',
    credentials: 'same-origin',
    // The console's pages say no-referrer, under which a POST may carry `Origin: null`, refused.
    referrerPolicy: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(everywhere ? { everywhere: true } : {}),
  });
  const body = (await res.json().catch(() => null)) as { error?: unknown; provider?: { endSession?: unknown } } | null;
  if (!res.ok && res.status !== 401)
    throw new Error(`The server did not sign you out (${res.status}${typeof body?.error === 'string' ? `: ${body.error}` : ''}).`);
  // Signed in through the identity provider: it ends its own session too, then sends the browser
  // back to the sign-in page (RP-Initiated Logout); one without that says so there.
  const provider = res.ok ? body?.provider : undefined;
  if (provider && typeof provider.endSession === 'string' && /^https?:\/\//.test(provider.endSession))
    return page.assign(provider.endSession);
  page.assign(provider ? `${SIGNED_OUT_PAGE}&provider-session` : SIGNED_OUT_PAGE);
}
