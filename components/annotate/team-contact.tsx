import { contactLabel, contactMailto, NO_CONTACT_TEXT, type StudyContact } from "@/lib/studies/contact-text";

/**
 * The words "write to <the study's contact>" inside a sentence, the address a mailto: link with the
 * study's title as its subject; without a contact, the ways every participant has (the platform's
 * messages, whoever sent the link). No hooks: server pages and the work page's notices use it.
 */
export function TeamContact({ contact, studyTitle }: { contact: StudyContact | null; studyTitle?: string }) {
  if (!contact)
    return (
      <span data-testid="team-contact" data-contact="none">
        {NO_CONTACT_TEXT}
      </span>
    );
  const href = contactMailto(contact, studyTitle);
  return (
    <span data-testid="team-contact" data-contact="study">
      {href ? "write to " : "ask "}
      {href ? (
        <a href={href} className="font-medium text-brand-700 underline [overflow-wrap:anywhere]">
          {contactLabel(contact)}
        </a>
      ) : (
        <span className="font-medium">{contactLabel(contact)}</span>
      )}
    </span>
  );
}

/** A line at the foot of a study's page: whom to ask about the study (only when the study names a contact). */
export function StudyContactLine({
  contact,
  studyTitle,
  className = "mt-6 text-center",
}: {
  contact: StudyContact | null;
  studyTitle: string;
  className?: string;
}) {
  if (!contact) return null;
  return (
    <p className={`${className} text-xs text-slate-500`} data-testid="study-contact">
      Questions about this study? Please <TeamContact contact={contact} studyTitle={studyTitle} />.
    </p>
  );
}
