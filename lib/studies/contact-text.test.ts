import { describe, expect, it } from "vitest";
import { contactLabel, contactMailto, NO_CONTACT_TEXT } from "@/lib/studies/contact-text";
import { studyContactChangeSchema } from "@/lib/validations/study-settings";

describe("the research team's contact as participants read it", () => {
  it("names the person and the address, either alone, and links the address with the study as the subject", () => {
    expect(contactLabel({ name: "Ana Ruiz", email: "ana@lab.example.org" })).toBe("Ana Ruiz (ana@lab.example.org)");
    expect(contactLabel({ name: null, email: "ana@lab.example.org" })).toBe("ana@lab.example.org");
    expect(contactLabel({ name: "Ana Ruiz", email: null })).toBe("Ana Ruiz");
    expect(contactMailto({ name: "Ana Ruiz", email: "ana+study@lab.example.org" }, "Ordering steps & more")).toBe(
      "mailto:ana%2Bstudy@lab.example.org?subject=Ordering%20steps%20%26%20more",
    );
    expect(contactMailto({ name: "Ana Ruiz", email: null }, "x")).toBeNull();
  });

  it("says how to reach the team without a contact: the platform's messages, or whoever sent the link", () => {
    expect(NO_CONTACT_TEXT).toMatch(/Prolific: Messages/);
    expect(NO_CONTACT_TEXT).toMatch(/whoever sent you the link/);
  });

  it("takes empty fields as none and refuses what is not an address", () => {
    expect(studyContactChangeSchema.parse({ contactName: "", contactEmail: null })).toEqual({ contactName: null, contactEmail: null });
    expect(studyContactChangeSchema.parse({ contactName: " Ana ", contactEmail: " ana@lab.example.org " })).toEqual({
      contactName: "Ana",
      contactEmail: "ana@lab.example.org",
    });
    const refused = studyContactChangeSchema.safeParse({ contactName: "Ana", contactEmail: "ana at lab" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path.join("."))).toEqual(["contactEmail"]);
    expect(studyContactChangeSchema.safeParse({ contactName: "Ana" }).success).toBe(false);
  });
});
