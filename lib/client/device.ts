/**
 * "Desktop only" studies (Study.desktopOnly): phones and tablets get a notice instead of the task.
 * Pure (the server's work page and the browser both use it).
 *
 * Decision: a device counts as a phone or tablet when
 * - its user agent says so (Android, iPhone, iPad, "Mobile", Client Hint `Sec-CH-UA-Mobile: ?1`),
 *   checked on the server so that the task is never even loaded; or
 * - in the browser, its only pointer is a finger: `(pointer: coarse)` with no fine pointer at all.
 *   This catches iPadOS Safari, which sends a Mac's user agent. A touchscreen laptop has a
 *   touchpad or mouse (`any-pointer: fine`) and passes; so does a narrow desktop window, since
 *   width alone says nothing about the device (and a person can widen the window).
 * The tasks need a mouse or touchpad and a large screen (drag and drop between a dozen pictures,
 * a scene editor), which is why a study can require a computer; Prolific has a matching device
 * filter (DESKTOP_ONLY_PROLIFIC_TEXT says which to tick).
 */

/** Matches in the browser on a device whose only pointer is coarse (a finger). */
export const TOUCH_ONLY_QUERY = "(pointer: coarse) and (not (any-pointer: fine))";

const PHONE_OR_TABLET_UA = /\b(Android|iPhone|iPad|iPod|Mobile|Silk|Kindle|BlackBerry|Opera Mini|IEMobile|webOS)\b/i;

/** From the request headers: true for a phone or tablet by its user agent or Client Hints. */
export function isPhoneOrTabletRequest(userAgent: string | null, chUaMobile: string | null = null): boolean {
  if (chUaMobile === "?1") return true;
  return userAgent !== null && PHONE_OR_TABLET_UA.test(userAgent);
}

/** What a participant on a phone or tablet reads. */
export const DESKTOP_ONLY_MESSAGE =
  "This study works only on a desktop or laptop computer with a mouse or touchpad: its items need a large screen and precise dragging. Please open the same link on a computer; your progress is kept there (nothing you did here is lost).";

/** For the researcher to paste into the recruitment platform (Prolific: study description and device settings). */
export const DESKTOP_ONLY_PROLIFIC_TEXT =
  "Device requirement: this study works only on a desktop or laptop computer (Windows, macOS, Linux or ChromeOS) with a mouse or touchpad and a screen at least 1280 pixels wide. Phones and tablets are not supported: the study shows a notice instead of the task on them. On Prolific, under Devices, allow Desktop only (untick Mobile and Tablet).";
