/**
 * How the pages name the research team's contact (Study.contactName, contactEmail) to
 * participants. Pure and browser-safe: the join pages, the study's pages and the work page's
 * notices all word it the same way.
 */

export interface StudyContact {
  /** a person or a team, e.g. "Dr Ana Ruiz, Embodied AI Lab" */
  name: string | null;
  email: string | null;
}

/** "Ana Ruiz (ana@lab.example.org)", "ana@lab.example.org" or "Ana Ruiz". */
export function contactLabel(contact: StudyContact): string {
  if (contact.name && contact.email) return `${contact.name} (${contact.email})`;
  return contact.email ?? contact.name ?? "";
}

/** A mailto: link to the contact's address with the study's title as the subject; null without an address. */
export function contactMailto(contact: StudyContact, studyTitle?: string): string | null {
  if (!contact.email) return null;
  return `mailto:${encodeURIComponent(contact.email).replace(/%40/g, "@")}${studyTitle ? `?subject=${encodeURIComponent(studyTitle)}` : ""}`;
}

/**
 * What a page says instead when the study names no contact (or no study is known: a link that
 * matches none): the ways every participant has, the recruitment platform's messages or the person
 * who sent the link.
 */
export const NO_CONTACT_TEXT =
  "message the research team on the platform you came from (on Prolific: Messages, from your submission), or reply to whoever sent you the link";
