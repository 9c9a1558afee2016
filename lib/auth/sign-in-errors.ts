/**
 * What the sign-in form shows for next-auth's `error` (from signIn() or the ?error= of a redirect).
 * Only known shapes become text (lib/auth/login-throttle.ts lockoutErrorCode); anything else is the
 * generic message, so a crafted link cannot put its own words on the page.
 */
export const WRONG_CREDENTIALS_MESSAGE = "Wrong email or password, or the account is disabled.";

export function signInErrorMessage(error: string | null | undefined): string | undefined {
  if (!error) return undefined;
  const wait = /^wait:email:(\d{1,4})$/.exec(error);
  if (wait) {
    const seconds = Number(wait[1]);
    return `Too many failed sign-ins for this account: wait ${seconds} second${seconds === 1 ? "" : "s"} and try again.`;
  }
  const locked = /^locked:(pair|address):(\d{1,4})$/.exec(error);
  if (!locked) return WRONG_CREDENTIALS_MESSAGE;
  const minutes = Number(locked[2]);
  const later = `Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  return locked[1] === "pair"
    ? `Too many failed sign-ins for this account from your network: it is locked here for now. ${later}`
    : `Too many failed sign-ins from your network: signing in from it is paused. ${later}`;
}
