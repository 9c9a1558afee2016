import { describe, expect, it } from "vitest";
import { ACTION_KEYS } from "@/lib/tasks/esi-explore/actions";
import { shortcutsFor } from "@/components/annotate/task-shortcuts";

/** The "Keys" popover lists what each kind's key handler does (ESI's too). */
describe("shortcutsFor", () => {
  it("lists every ESI movement key (W A S D R F, the arrows) and the number keys that choose an option", () => {
    const list = shortcutsFor("esi-explore", null);
    const keys = list.map((shortcut) => shortcut.keys).join(" | ");
    for (const shortcut of Object.values(ACTION_KEYS)) expect(keys, `key ${shortcut!.label}`).toContain(shortcut!.label);
    expect(list.some((shortcut) => /1–9/.test(shortcut.keys) && /answer|option/.test(shortcut.action))).toBe(true);
    // the gallery of views (single-view and walk conditions) steps with ← →
    expect(list.some((shortcut) => /view/.test(shortcut.action) && /←/.test(shortcut.keys))).toBe(true);
  });

  it("lists Ego2World's number keys for the action palette", () => {
    expect(shortcutsFor("ego2world-play", null).some((shortcut) => /1–9/.test(shortcut.keys) && /action/.test(shortcut.action))).toBe(true);
  });

  it("ends every kind's list with the keys of every page", () => {
    const list = shortcutsFor("no-such-kind", null);
    expect(list.map((shortcut) => shortcut.keys)).toContain("Esc");
  });
});
