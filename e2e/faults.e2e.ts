import { test, expect } from "@playwright/test";
import { assignmentsOf, createEnactStudy, deleteStudy, responsesOf, storedEvents, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb } from "./db";
import { AnnotatePage, letter } from "./pages/annotate-page";
import { storageStatePath } from "./users";

/**
 * Faults in the browser: offline for a whole minute, the tab closed and opened again
 * mid-item. The queued events must survive in localStorage and reach the server exactly once when
 * the network is back (the database shows no gap and no duplicate). The minute is not shortened:
 * the outbox's retry delays double up to 60 s, so a shorter spell would not test the same thing.
 */

const OFFLINE_MS = 60_000;

let studies: FixtureStudy[] = [];
test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

test("a minute offline, the tab closed and reopened mid-item: the queued events arrive once, the item resumes", async ({ browser }) => {
  test.setTimeout(OFFLINE_MS + 90_000);
  const context = await browser.newContext({ storageState: storageStatePath("annotator") });
  const study = await createEnactStudy({ items: [{ kind: "enact-forward", steps: 5 }], members: ["annotator"] });
  studies.push(study);
  const order = study.items[0].order;
  const page = await context.newPage();
  const annotate = new AnnotatePage(page);
  await annotate.open(study.slug);
  await annotate.waitUntilSynced();
  const assignmentId = await annotate.assignmentId();
  await annotate.placeByKeyboard(order[0], 0);
  await annotate.waitUntilSynced();
  const storedBefore = (await storedEvents(assignmentId)).length;

  // offline: the annotator goes on working; nothing reaches the server
  const offlineSince = Date.now();
  await context.setOffline(true);
  await annotate.placeByKeyboard(order[1], 1);
  await annotate.placeByKeyboard(order[2], 2);
  await annotate.clearStep(2);
  await annotate.placeByKeyboard(order[2], 2);
  await expect(annotate.syncStatus).toHaveAttribute("data-offline", "true", { timeout: 15_000 });
  const outboxOf = () =>
    page.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith("yardstick:outbox"))
        .map((k) => localStorage.getItem(k) ?? "")
        .join(""),
    );
  const queued = JSON.parse((await outboxOf()) || "{}") as { events?: Array<{ assignmentId: string; seq: number; type: string }> };
  const pending = (queued.events ?? []).filter((event) => event.assignmentId === assignmentId);
  expect(pending.filter((event) => event.type === "slot_filled")).toHaveLength(3);
  expect(pending.filter((event) => event.type === "slot_cleared")).toHaveLength(1);

  // the rest of the minute with the page open: its retries keep failing, and back off
  await page.waitForTimeout(Math.max(0, OFFLINE_MS - (Date.now() - offlineSince)));
  expect((await storedEvents(assignmentId)).length).toBe(storedBefore);
  await expect(annotate.syncStatus).toHaveAttribute("data-offline", "true");

  // the tab is closed while still offline (its last-chance beacon cannot get out either) ...
  await page.close();
  expect((await storedEvents(assignmentId)).length).toBe(storedBefore);
  await context.setOffline(false);

  // ... and opened again: the outbox in localStorage is sent, the item resumes where it was
  const reopened = await context.newPage();
  const again = new AnnotatePage(reopened);
  await again.open(study.slug);
  expect(await again.assignmentId()).toBe(assignmentId);
  for (const step of [0, 1, 2]) await expect(again.slot(step)).toHaveAttribute("data-filled", letter(order[step]));
  await again.waitUntilSynced();
  for (let step = 3; step < order.length; step++) await again.placeByKeyboard(order[step], step);
  await again.setConfidence(4);
  await again.submit();
  await expect.poll(async () => (await responsesOf(assignmentId)).length, { timeout: 20_000 }).toBe(1);
  await expect.poll(async () => (await assignmentsOf(study.id, "annotator"))[0]?.status).toBe("SUBMITTED");

  const events = await storedEvents(assignmentId);
  expect(
    events.map((event) => event.seq),
    "no gap, no duplicate",
  ).toEqual(events.map((_, i) => i));
  // every offline event arrived, once, in the order it happened
  const offlineEvents = events.filter((event) => pending.some((p) => p.seq === event.seq));
  expect(offlineEvents.map((event) => [event.seq, event.type])).toEqual(pending.map((p) => [p.seq, p.type]));
  expect(events.filter((event) => event.type === "slot_filled")).toHaveLength(order.length + 1); // the third step was filled twice
  expect(events.filter((event) => event.type === "submitted")).toHaveLength(1);
  expect(events.filter((event) => event.type === "item_shown").map((event) => event.payload.resumed)).toEqual([false, true]);
  const [response] = await responsesOf(assignmentId);
  expect(response.correct).toBe(true);
  expect(
    await reopened.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith("yardstick:outbox"))
        .map((k) => JSON.parse(localStorage.getItem(k) ?? "{}").events?.length ?? 0),
    ),
  ).toEqual([0]);
  await context.close();
});
