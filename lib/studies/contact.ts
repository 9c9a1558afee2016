import "server-only";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import { studyContactChangeSchema, type StudyContactChange } from "@/lib/validations/study-settings";
import type { StudyContact } from "@/lib/studies/contact-text";
import { findContactByEntryToken, findContactBySlug, findContactByInviteToken, findStudyContact, setStudyContact } from "@/lib/repos/studies";

/**
 * How participants reach the research team (Study.contactName, contactEmail): set on the Settings
 * tab, changeable once the study has answers (it steers nothing of the work, as the status and the
 * entry link), and named on the pages that tell participants to write to the team (the ended page,
 * a link that does not work, the study's own pages). The wording is lib/studies/contact-text.ts.
 */

/** The contact as stored, or null when neither part is given. */
export function contactOf(row: { contactName: string | null; contactEmail: string | null }): StudyContact | null {
  const name = row.contactName?.trim() || null;
  const email = row.contactEmail?.trim() || null;
  return name === null && email === null ? null : { name, email };
}

/** Changes the contact; one audit entry with the old and new values. */
export async function updateStudyContact(slug: string, raw: StudyContactChange, actorId: string): Promise<StudyContactChange> {
  const input = studyContactChangeSchema.parse(raw);
  const study = await findStudyContact(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const before = { contactName: study.contactName, contactEmail: study.contactEmail };
  if (before.contactName === input.contactName && before.contactEmail === input.contactEmail) return input;
  await setStudyContact(study.id, input);
  await recordAudit(actorId, "study.contact", `study:${study.id}`, { slug, from: before, to: input });
  return input;
}

/** The contact of the study behind a public entry link (for the page that refuses the link); null without a study or a contact. */
export async function contactByEntryToken(entryToken: string): Promise<StudyContact | null> {
  if (entryToken.length < 8 || entryToken.length > 100) return null;
  const study = await findContactByEntryToken(entryToken);
  return study ? contactOf(study) : null;
}

/** The contact of the study an invite link is for; null without an invite or a contact. */
export async function contactByInvite(token: string): Promise<StudyContact | null> {
  if (token.length < 8 || token.length > 100) return null;
  const study = await findContactByInviteToken(token);
  return study ? contactOf(study) : null;
}

/** The contact of a study by its slug (the page a withdrawn participant lands on, signed out); null without a study or a contact. */
export async function contactBySlug(slug: string): Promise<{ contact: StudyContact | null; studyTitle: string } | null> {
  if (slug.length < 1 || slug.length > 100) return null;
  const study = await findContactBySlug(slug);
  return study ? { contact: contactOf(study), studyTitle: study.title } : null;
}
