import { describe, expect, it } from "vitest";
import { miniEpisode } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode";
import { applyEgoEvent, applyNoteEvent, beliefAccuracy, emptyEgoDraft, noteAreaMatches, type Note } from "@/lib/tasks/ego2world-play/notes";

const seen = (object: string, area: string): Note => ({ object, area, state: "", confidence: "high", source: "seen" });

describe("notes", () => {
  it("adds, edits and removes rows; malformed or no-op events change nothing", () => {
    let notes: Note[] = [];
    notes = applyNoteEvent(notes, "note_added", { object: "cup_01", area: "counter", state: "", confidence: "high", source: "seen", via: "auto" });
    expect(notes).toEqual([seen("cup_01", "counter")]);
    expect(applyNoteEvent(notes, "note_added", { object: "cup_01", area: "sink", state: "", confidence: "high", source: "seen" })).toBe(notes);
    expect(applyNoteEvent(notes, "note_added", { object: "x_01", area: "sink", state: "", confidence: "sure", source: "seen" })).toBe(notes);
    notes = applyNoteEvent(notes, "note_edited", { object: "cup_01", field: "state", value: "full of coffee" });
    notes = applyNoteEvent(notes, "note_edited", { object: "cup_01", field: "source", value: "feedback" });
    notes = applyNoteEvent(notes, "note_edited", { object: "cup_01", field: "area", value: "" });
    expect(notes).toEqual([{ object: "cup_01", area: null, state: "full of coffee", confidence: "high", source: "feedback" }]);
    expect(applyNoteEvent(notes, "note_edited", { object: "cup_01", field: "state", value: "full of coffee" })).toBe(notes);
    expect(applyNoteEvent(notes, "note_edited", { object: "cup_01", field: "label", value: "mug" })).toBe(notes);
    expect(applyNoteEvent(notes, "note_removed", { object: "cup_01" })).toEqual([]);
  });

  it("marks the draft finished once", () => {
    const draft = emptyEgoDraft();
    const finished = applyEgoEvent(draft, "episode_finished", { tasks: 2 });
    expect(finished.finished).toBe(true);
    expect(applyEgoEvent(finished, "episode_finished", { tasks: 2 })).toBe(finished);
  });

  it("belief accuracy: the share of noted areas that match the hidden world (hand and gone included)", () => {
    const world = structuredClone(miniEpisode().world);
    world.agent.hand = "knife_01";
    world.objects.knife_01.area = "held";
    delete world.objects.bread_01;
    expect(noteAreaMatches(world, "knife_01", "hand")).toBe(true);
    expect(noteAreaMatches(world, "knife_01", "drawer")).toBe(false);
    expect(noteAreaMatches(world, "bread_01", "gone")).toBe(true);
    expect(noteAreaMatches(world, "bread_01", "counter")).toBe(false);
    expect(noteAreaMatches(world, "cup_01", "counter")).toBe(true);
    const notes = [seen("knife_01", "hand"), seen("bread_01", "counter"), seen("cup_01", "counter"), { ...seen("plate_01", "x"), area: null }];
    expect(beliefAccuracy(notes, world)).toBe(2 / 3);
    expect(beliefAccuracy([], world)).toBeNull();
  });
});
