import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ACTIVITIES, applyAction, emptyState, generateTrajectory, hiddenFacts, isHidden, rngFor, type KitchenState } from "@/scripts/demo-data/kitchen-world";
import { DRAWN_FIXTURES, IMAGE_HEIGHT, IMAGE_WIDTH, drawnEntities, renderStatePng, renderStateSvg } from "@/scripts/demo-data/render-scene";

function sampleStates(count: number): KitchenState[] {
  const states: KitchenState[] = [];
  for (let k = 0; k < count; k++) {
    const t = generateTrajectory(rngFor("render", k), { actions: 6, activity: ACTIVITIES[k % ACTIVITIES.length].name, hand: "both" });
    states.push(...t.states);
  }
  return states;
}

describe("render-scene", () => {
  it("draws every visible object and fixture and never a hidden one", () => {
    let hiddenSeen = 0;
    for (const s of sampleStates(25)) {
      const drawn = drawnEntities(renderStateSvg(s));
      for (const fixture of DRAWN_FIXTURES) expect(drawn.has(fixture)).toBe(true);
      for (const obj of s.objects) {
        expect(drawn.has(obj), `${obj} drawn`).toBe(!isHidden(s, obj));
        if (isHidden(s, obj)) hiddenSeen++;
      }
    }
    expect(hiddenSeen).toBeGreaterThan(0);
  });

  it("is a function of the visible facts only: changing hidden facts changes nothing", () => {
    const s = emptyState();
    s.objects = ["apple", "bread", "bowl"];
    s.loc = { apple: { rel: "Inside", target: "bowl" }, bowl: { rel: "Inside", target: "fridge" }, bread: { rel: "OnTop", target: "table" } };
    const variant: KitchenState = { ...s, cooked: ["apple"], sliced: ["apple"], wet: ["bowl"] };
    expect(hiddenFacts(s).length).toBeGreaterThan(0);
    expect(renderStateSvg(variant)).toBe(renderStateSvg(s));
    const open = applyAction(s, { type: "open", hand: "left", fixture: "fridge" })!;
    expect(renderStateSvg(open)).not.toBe(renderStateSvg(s));
    expect(drawnEntities(renderStateSvg(open)).has("apple")).toBe(true);
  });

  it("consecutive observations always look different", () => {
    for (let k = 0; k < 15; k++) {
      const t = generateTrajectory(rngFor("consecutive", k), { actions: 8, requireRepeat: k % 2 === 0 });
      for (let i = 1; i < t.states.length; i++) expect(renderStateSvg(t.states[i])).not.toBe(renderStateSvg(t.states[i - 1]));
    }
  });

  it("shows what each gripper holds", () => {
    const s = emptyState();
    s.objects = ["cup"];
    s.loc = { cup: { rel: "held", hand: "left" } };
    s.hands = { left: "cup", right: "fridge" };
    const svg = renderStateSvg(s);
    expect(svg).toContain("left gripper");
    expect(svg).toContain("right gripper");
    expect(svg).toContain("fridge handle");
    expect(drawnEntities(svg).has("cup")).toBe(true);
  });

  it("rasterises to a small PNG of the stated size, the same bytes every time", async () => {
    const s = sampleStates(1)[3];
    const a = await renderStatePng(s);
    const b = await renderStatePng(s);
    expect(a.equals(b)).toBe(true);
    const meta = await sharp(a).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", IMAGE_WIDTH, IMAGE_HEIGHT]);
    expect(a.length).toBeLessThan(12_000);
    // text renders (a label area is not blank): the image has many distinct colours from anti-aliased glyphs
    const { data, info } = await sharp(a).extract({ left: 4, top: 238, width: 140, height: 16 }).raw().toBuffer({ resolveWithObject: true });
    const colours = new Set<string>();
    for (let i = 0; i < data.length; i += info.channels) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    expect(colours.size).toBeGreaterThan(2);
  });
});
