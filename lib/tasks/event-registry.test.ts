import { describe, expect, it } from "vitest";
import { taskKinds } from "@/lib/tasks";
import { registeredKindEvents } from "@/lib/tasks/event-registry";
import { trajectoryPayloadSchemas } from "@/lib/validations/annotate";

describe("event registry", () => {
  it("lists the same kinds as the module registry", () => {
    expect(registeredKindEvents().map(([kind]) => kind)).toEqual(taskKinds);
  });

  it("two kinds name one event type only when they share its schema (a family's events), and no kind takes a common one", () => {
    const owners = new Map<string, unknown>();
    for (const [, events] of registeredKindEvents()) {
      for (const [type, schema] of Object.entries(events.payloadSchemas)) {
        if (owners.has(type)) expect(owners.get(type), type).toBe(schema);
        owners.set(type, schema);
      }
    }
    for (const [type, schema] of owners) expect(trajectoryPayloadSchemas[type as keyof typeof trajectoryPayloadSchemas], type).toBe(schema);
  });

  it("each kind's reducer and description leave other kinds' events to them", () => {
    const state = { answer: null, confidence: null, zoomed: null, frame: null };
    for (const [kind, events] of registeredKindEvents()) {
      const other = { type: "page_hidden", payload: {} };
      expect(events.reduce?.(state, other) ?? null, kind).toBeNull();
      expect(events.describe?.(other, { name: String, percent: false }) ?? null, kind).toBeNull();
    }
  });
});
