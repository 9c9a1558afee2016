/**
 * What the sign-in form shows for next-auth's `error` (from signIn() or the ?error= of a redirect).
 * Only known shapes become text (lib/login-throttle.ts lockoutErrorCode); anything else is the
 * generic message, so a crafted link cannot put its own words on the page.
 */
export const WRONG_CREDENTIALS_MESSAGE = "Wrong email or password, or the account is disabled.";

export function signInErrorMessage(error: string | null | undefined): string | undefined {
  if (!error) return undefined;
  const locked = /^locked:(email|address):(\d{1,4})$/.exec(error);
  if (!locked) return WRONG_CREDENTIALS_MESSAGE;
  const minutes = Number(locked[2]);
  const wait = `Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  return locked[1] === "email"
    ? `Too many failed sign-ins for this account: it is locked for now. ${wait}`
    : `Too many failed sign-ins from your network: signing in from it is paused. ${wait}`;
}
