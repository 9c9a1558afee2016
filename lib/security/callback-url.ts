/**
 * Where the sign-in page sends the browser afterwards (?callbackUrl=). Only a place on the app's
 * own origin, judged as the browser will judge it: the value is resolved as a URL (so "/\evil",
 * "//evil", "/\t/evil" and "https://evil" resolve to another host and are refused), and what is
 * kept is its path, query and fragment, which cannot leave the origin.
 */
const BASE = "https://yardstick.invalid";

export function safeCallbackPath(raw: string | null | undefined, appOrigin?: string): string | undefined {
  if (!raw || raw.length > 2000) return undefined;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return undefined;
  }
  const own = new Set([BASE]);
  if (appOrigin) {
    try {
      own.add(new URL(appOrigin).origin);
    } catch {
      // an unusable NEXTAUTH_URL: only relative callbacks
    }
  }
  if (!own.has(url.origin)) return undefined;
  // a path that starts with two slashes would be read as another host when used as a URL ("/.//evil", "https://app//evil")
  if (url.pathname.startsWith("//")) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
