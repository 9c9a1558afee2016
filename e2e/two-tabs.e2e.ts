import { test, expect, type BrowserContext, type Page } from "@playwright/test";
import { createEnactStudy, deleteStudy, responsesOf, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import { AnnotatePage, letter } from "./pages/annotate-page";
import { storageStatePath } from "./users";

/**
 * One item open twice: in two tabs of one browser, and on two devices (two browser contexts).
 * One tab writes the item at a time (lib/responses/writer.ts): the other says so and offers to
 * take it over; every event a writing tab recorded is stored once (no tab's events are dropped as
 * another's duplicates), the replayed trajectory ends in the stored answer, and a second
 * submission is refused plainly instead of the page moving on as if it had been stored.
 */

let studies: FixtureStudy[] = [];
test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

async function twoItemStudy() {
  const study = await createEnactStudy({
    items: [
      { kind: "enact-forward", steps: 4 },
      { kind: "enact-forward", steps: 4 },
    ],
    members: ["annotator"],
  });
  studies.push(study);
  return study;
}

interface StoredEvent {
  writer: string;
  seq: number;
  type: string;
  payload: { slot?: number; candidate?: number; fromSlot?: number | null };
}

async function eventsOf(assignmentId: string): Promise<StoredEvent[]> {
  const { rows } = await e2eDb().query(`SELECT writer, seq, type, payload FROM "Event" WHERE "assignmentId" = $1 ORDER BY seq, id`, [assignmentId]);
  return rows as StoredEvent[];
}

/** The steps as the replay rebuilds them from the stored events (keyboard placements and clears). */
function replayedOrder(events: StoredEvent[], steps: number): Array<number | null> {
  const slots: Array<number | null> = Array.from({ length: steps }, () => null);
  for (const event of events) {
    if (event.type === "slot_filled" && event.payload.slot !== undefined) {
      if (event.payload.fromSlot !== undefined && event.payload.fromSlot !== null) slots[event.payload.fromSlot] = null;
      for (let i = 0; i < steps; i++) if (slots[i] === event.payload.candidate) slots[i] = null;
      slots[event.payload.slot] = event.payload.candidate ?? null;
    }
    if (event.type === "slot_cleared" && event.payload.slot !== undefined) slots[event.payload.slot] = null;
  }
  return slots;
}

/** Places a candidate by keyboard without waiting for the step to show it (a tab that may have lost the item). */
async function pressPlace(page: Page, candidate: number, step: number) {
  await page.getByTestId("task").locator(`[data-candidate="${candidate}"]`).focus();
  await page.keyboard.press(String(step + 1));
}

async function takeOver(page: Page) {
  await expect(page.getByTestId("other-writer")).toBeVisible({ timeout: 15_000 });
  await page.getByTestId("other-writer").getByRole("button", { name: "Take over here" }).click();
}

function expectEachStoredOnce(events: StoredEvent[]) {
  const keys = events.map((e) => `${e.writer}#${e.seq}`);
  expect(new Set(keys).size, "every (writer, seq) once").toBe(keys.length);
  // the tabs' numbers go on from each other: the one that took over starts after what was stored
  const seqs = events.map((e) => e.seq);
  expect(new Set(seqs).size, "no seq of one tab shadows another's").toBe(seqs.length);
}

async function openTwice(first: BrowserContext, second: BrowserContext, slug: string) {
  const one = new AnnotatePage(await first.newPage());
  await one.open(slug);
  const assignmentId = await one.assignmentId();
  const two = new AnnotatePage(await second.newPage());
  await two.page.goto(`/s/${slug}/work`);
  return { one, two, assignmentId };
}

for (const setup of ["two tabs of one browser", "two devices (two browser contexts)"] as const) {
  test(`${setup}: one writes at a time, the other takes over on request; every event stored once, one submission`, async ({ browser }) => {
    const first = await browser.newContext({ storageState: storageStatePath("annotator") });
    const second = setup === "two tabs of one browser" ? first : await browser.newContext({ storageState: storageStatePath("annotator") });
    const study = await twoItemStudy();
    const order = study.items[0].order;
    const { one, two, assignmentId } = await openTwice(first, second, study.slug);

    // the first tab works; the second says the item is open elsewhere, and takes no clicks
    await one.placeByKeyboard(order[0], 0);
    await one.waitUntilSynced();
    await expect(two.page.getByTestId("other-writer")).toBeVisible({ timeout: 15_000 });
    await expect(two.task).toHaveCount(0);

    // the second takes it over: the item as the first left it, and it goes on there
    await takeOver(two.page);
    await two.waitForItem();
    expect(await two.assignmentId()).toBe(assignmentId);
    await expect(two.slot(0)).toHaveAttribute("data-filled", letter(order[0]));
    await two.placeByKeyboard(order[1], 1);
    await two.waitUntilSynced();

    // the first tab's next click is refused: it says so, and stores nothing of it
    await pressPlace(one.page, order[order.length - 1], 2);
    await expect(one.page.getByTestId("other-writer")).toBeVisible({ timeout: 15_000 });

    for (let step = 2; step < order.length; step++) await two.placeByKeyboard(order[step], step);
    await two.setConfidence(4);
    await two.submit();
    await expect.poll(async () => (await responsesOf(assignmentId)).length, { timeout: 20_000 }).toBe(1);

    // the first tab asks for it back: it was submitted, and says so instead of taking a second answer
    await one.page.getByTestId("other-writer").getByRole("button", { name: "Take over here" }).click();
    await expect(one.page.getByTestId("submitted-elsewhere")).toBeVisible({ timeout: 15_000 });

    const events = await eventsOf(assignmentId);
    expectEachStoredOnce(events);
    expect(new Set(events.map((e) => e.writer)).size, "both tabs wrote").toBe(2);
    expect(
      events.filter((e) => e.type === "submitted"),
      "one Submitted in the timeline",
    ).toHaveLength(1);
    const [response] = await responsesOf(assignmentId);
    expect((response.answer as { order: number[] }).order).toEqual(order);
    expect(replayedOrder(events, order.length), "the replay ends in the stored answer").toEqual(order);

    // the first tab goes on to the next item, which the second tab has open already: it says so
    await one.page.getByTestId("submitted-elsewhere").click();
    await expect(one.page.getByTestId("other-writer")).toBeVisible({ timeout: 15_000 });

    if (second !== first) await second.close();
    await first.close();
  });
}

test("a stale tab's Submit is refused plainly (not stored, not a silent move-on), and the tab can take the item back", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStatePath("annotator") });
  const study = await twoItemStudy();
  const order = study.items[0].order;
  const { one, two, assignmentId } = await openTwice(context, context, study.slug);

  // the first tab fills the whole item; then the second takes it over before the first submits
  for (const [step, candidate] of order.entries()) await one.placeByKeyboard(candidate, step);
  await one.setConfidence(3);
  await one.waitUntilSynced();
  await takeOver(two.page);
  await two.waitForItem();
  for (const step of order.keys()) await expect(two.slot(step)).toHaveAttribute("data-filled", letter(order[step]));

  // the first tab does not know yet: its Submit is refused, and it says so above the next item
  await one.submitButton.click();
  const refused = one.page.getByTestId("submission-refused");
  await expect(refused).toBeVisible({ timeout: 15_000 });
  await expect(refused).toHaveAttribute("data-reason", "writer");
  await expect(refused).toHaveAttribute("data-assignment", assignmentId);
  expect(await responsesOf(assignmentId)).toHaveLength(0);
  expect((await eventsOf(assignmentId)).filter((e) => e.type === "submitted")).toHaveLength(0);

  // it takes the item back, and submits it there: one response, one Submitted
  await refused.getByRole("button", { name: "Take over here" }).click();
  await one.waitForItem();
  expect(await one.assignmentId()).toBe(assignmentId);
  for (const step of order.keys()) await expect(one.slot(step)).toHaveAttribute("data-filled", letter(order[step]));
  await one.setConfidence(3);
  await one.submit();
  await expect.poll(async () => (await responsesOf(assignmentId)).length, { timeout: 20_000 }).toBe(1);
  const events = await eventsOf(assignmentId);
  expectEachStoredOnce(events);
  expect(events.filter((e) => e.type === "submitted")).toHaveLength(1);
  expect(replayedOrder(events, order.length)).toEqual(order);
  await context.close();
});
