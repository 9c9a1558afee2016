/**
 * Path safety for batch files. Every path a batch names (image references in items, entries of
 * a zip) must stay inside the batch: relative, "/"-separated, no "..", no NUL. Anything else is
 * rejected with the reason, never silently repaired, so that a batch means the same thing on
 * every machine (a backslash is a folder separator on Windows and a file-name character here).
 */

export type BatchPathCheck = { ok: true; path: string } | { ok: false; reason: string };

const urlPattern = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const drivePattern = /^[A-Za-z]:/;

/**
 * Checks one path given in a batch and returns it normalised ("./img//a.png" -> "img/a.png"),
 * or the reason it is refused, phrased to follow the quoted path: `"../a.png" contains ".." ...`.
 *
 * @example checkBatchPath("img/a.png") // { ok: true, path: "img/a.png" }
 * @example checkBatchPath("/etc/passwd") // { ok: false, reason: "is an absolute path; ..." }
 */
export function checkBatchPath(raw: string): BatchPathCheck {
  if (typeof raw !== "string" || raw === "") return { ok: false, reason: "is empty" };
  if (raw.includes("\0")) return { ok: false, reason: "contains a NUL character" };
  if (raw.includes("\\")) {
    return { ok: false, reason: 'contains a backslash; separate folders with "/"' };
  }
  if (urlPattern.test(raw)) return { ok: false, reason: "is a URL; images must be files inside the batch" };
  if (raw.startsWith("/")) {
    return { ok: false, reason: "is an absolute path; paths must be relative to the batch folder" };
  }
  if (drivePattern.test(raw)) {
    return { ok: false, reason: "starts with a drive letter; paths must be relative to the batch folder" };
  }
  const segments = raw.split("/");
  if (segments.includes("..")) return { ok: false, reason: 'contains ".." and would leave the batch folder' };
  const kept = segments.filter((segment) => segment !== "" && segment !== ".");
  if (kept.length === 0) return { ok: false, reason: "names no file" };
  return { ok: true, path: kept.join("/") };
}

/** The same check for a zip entry's raw name; folder entries ("img/") are fine. */
export function checkZipEntryName(raw: string): BatchPathCheck {
  const result = checkBatchPath(raw);
  if (!result.ok && result.reason.startsWith("is an absolute path")) {
    return { ok: false, reason: "is an absolute path; zip entries must be relative to the archive root" };
  }
  if (!result.ok && result.reason.startsWith('contains ".."')) {
    return { ok: false, reason: 'contains ".." and would be extracted outside the batch folder' };
  }
  return result;
}
