/**
 * Signing in through next-auth's own endpoints with fetch, as a browser does: GET /api/auth/csrf
 * (the double-submit token and its cookie), then POST /api/auth/callback/credentials.
 */

export interface SignInResult {
  /** the error next-auth put in its redirect (e.g. "CredentialsSignin", "locked:email:15"), null on success */
  error: string | null;
  /** the Set-Cookie headers of the callback */
  setCookies: string[];
  /** "name=value" of the session cookie, when one was set */
  sessionCookie: string | null;
}

function cookiePairs(setCookies: string[]): string {
  return setCookies.map((cookie) => cookie.split(";")[0]).join("; ");
}

export async function signInWithPassword(baseUrl: string, email: string, password: string, headers: Record<string, string> = {}): Promise<SignInResult> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookies = csrf.headers.getSetCookie();
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded", cookie: cookiePairs(csrfCookies), origin: baseUrl },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${baseUrl}/`, json: "true" }),
  });
  const setCookies = response.headers.getSetCookie();
  let url = response.headers.get("location") ?? "";
  if (!url && response.headers.get("content-type")?.includes("json")) url = ((await response.json()) as { url?: string }).url ?? "";
  const error = url ? new URL(url, baseUrl).searchParams.get("error") : `HTTP ${response.status}`;
  const session = setCookies.find((cookie) => /^(__Secure-)?next-auth\.session-token=/.test(cookie));
  return { error, setCookies, sessionCookie: session ? session.split(";")[0] : null };
}
