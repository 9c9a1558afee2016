import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getTaskModule, taskKinds } from "@/lib/tasks";
import type { TaskItem } from "@/lib/tasks/types";
import { kindFixtureBuilder } from "../e2e/kind-fixtures";

const fakeImage = async (name: string) => `/api/assets/${createHash("sha256").update(name).digest("hex")}`;

/**
 * The leak test's fixtures (e2e/kind-fixtures.ts) stay valid items of their kinds, and their
 * secrets really are only in the key: here against the kinds' own schemas and publicView, fast;
 * e2e/annotate-security.e2e.ts then checks everything an annotator's browser receives.
 */
describe("answer-key leak fixtures (e2e/kind-fixtures.ts)", () => {
  for (const kind of taskKinds) {
    it(`${kind}: a valid item whose secrets are in the key only, and a valid answer`, async () => {
      const fixture = await kindFixtureBuilder(kind)("KeyLeakUnit42", fakeImage);
      const kindModule = getTaskModule(kind);
      const parsed = kindModule.itemSchema
        ? kindModule.itemSchema.parse({ public: fixture.public, key: fixture.key })
        : { public: kindModule.publicSchema.parse(fixture.public), key: kindModule.keySchema.parse(fixture.key) };
      const item: TaskItem = { id: "leak", kind, public: parsed.public, key: parsed.key, tags: {} };
      const keyText = JSON.stringify(fixture.key);
      expect(fixture.secrets.length).toBeGreaterThan(0);
      for (const secret of fixture.secrets) expect(keyText, `secret ${secret}`).toContain(secret);
      const publicView = JSON.stringify(kindModule.publicView(item));
      for (const secret of fixture.secrets) expect(publicView, `secret ${secret} in publicView`).not.toContain(secret);
      expect(publicView).toContain(fixture.shown);
      if (!kindModule.playAnswer) {
        const answerSchema = kindModule.answerSchemaFor ? kindModule.answerSchemaFor(item) : kindModule.answerSchema;
        expect(answerSchema.safeParse(fixture.answer).success, JSON.stringify(answerSchema.safeParse(fixture.answer).error?.issues)).toBe(true);
      }
      if (kindModule.interactive) {
        expect(fixture.play?.length, "an interactive kind's fixture plays at least one action").toBeGreaterThan(0);
        for (const action of fixture.play ?? []) expect(kindModule.interactive.actionSchema.safeParse(action).success).toBe(true);
      }
    });
  }

  it("names the kind that has no fixture", () => {
    expect(() => kindFixtureBuilder("some-new-kind")).toThrow(/No answer-key leak fixture for the task kind "some-new-kind": add a builder/);
  });
});
