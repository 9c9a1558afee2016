import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StudyContactHint, StudyContactProvider } from "@/components/annotate/study-contact-context";

describe("the contact hint of a kind's own failure notice", () => {
  it("names the study's contact inside a participant's session, the platform's messages without one, and nothing outside a session", () => {
    const inSession = (contact: { name: string | null; email: string | null } | null) =>
      renderToStaticMarkup(createElement(StudyContactProvider, { contact, studyTitle: "Scenes" }, createElement(StudyContactHint)));
    expect(inSession({ name: "Ana Ruiz", email: "ana@lab.example.org" })).toContain('href="mailto:ana@lab.example.org?subject=Scenes"');
    expect(inSession({ name: "Ana Ruiz", email: "ana@lab.example.org" }).replace(/<[^>]+>/g, "")).toContain(
      "If this goes on, please write to Ana Ruiz (ana@lab.example.org).",
    );
    expect(inSession(null)).toContain("Prolific: Messages");
    expect(renderToStaticMarkup(createElement(StudyContactHint))).toBe("");
  });
});
