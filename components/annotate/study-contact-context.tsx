"use client";

import { createContext, useContext } from "react";
import { TeamContact } from "@/components/annotate/team-contact";
import type { StudyContact } from "@/lib/studies/contact-text";

/**
 * The study's contact for the task UIs of the work page (AnnotateSession provides it): a kind's
 * own failure notice (a simulator that does not answer) can then say whom to write to without the
 * kind knowing the study. Outside a session (the researcher's preview) there is none and the hint
 * shows nothing.
 */
const StudyContactContext = createContext<{ contact: StudyContact | null; studyTitle: string } | undefined>(undefined);

export function StudyContactProvider({ contact, studyTitle, children }: { contact: StudyContact | null; studyTitle: string; children?: React.ReactNode }) {
  return <StudyContactContext.Provider value={{ contact, studyTitle }}>{children}</StudyContactContext.Provider>;
}

/** "If this goes on, please write to <the contact>." inside a participant's session; nothing elsewhere. */
export function StudyContactHint({ className = "mt-2 text-xs" }: { className?: string }) {
  const value = useContext(StudyContactContext);
  if (!value) return null;
  return (
    <p className={className} data-testid="study-contact-hint">
      If this goes on, please <TeamContact contact={value.contact} studyTitle={value.studyTitle} />.
    </p>
  );
}
