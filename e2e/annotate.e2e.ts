import { test, expect } from "@playwright/test";
import { assignmentsOf, createEnactStudy, deleteStudy, responsesOf, storedEvents, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb } from "./db";
import { AnnotatePage, letter } from "./pages/annotate-page";
import { e2eUsers, storageStatePath } from "./users";

/**
 * The annotator's flow in Chromium against the built app and PostgreSQL: practice first, forward
 * and inverse items by drag and drop and by keyboard, the done page; going offline mid-item; the
 * researcher's item page and replay of what was done. Every spec reads the database back.
 */

const shots = "test-results/annotate";
let studies: FixtureStudy[] = [];

test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

/** Seqs of an assignment's stored events: 0..n-1, each once. */
function expectGapless(events: Array<{ seq: number }>) {
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
}

test.describe("annotating ENACT items", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("practice first, then a forward item by drag and drop and an inverse item by keyboard, then the done page", async ({ page, browser }) => {
    test.setTimeout(180_000);
    const study = await createEnactStudy({
      items: [
        { kind: "enact-forward", steps: 3, practice: true },
        { kind: "enact-forward", steps: 6 },
        { kind: "enact-inverse", steps: 5 },
      ],
      members: ["annotator"],
      completionCode: "E2E-THANKS-7",
    });
    studies.push(study);
    const byExternal = new Map(study.items.map((item) => [item.id, item]));

    await page.goto("/studies");
    await expect(page.getByRole("link", { name: study.title })).toBeVisible();
    await page.screenshot({ path: `${shots}/studies.png` });
    await page.getByRole("link", { name: study.title }).click();
    await expect(page.getByRole("heading", { name: "How to work" })).toBeVisible();
    await expect(page.getByTestId("home-progress")).toHaveText("0 of 2 items done");
    await page.screenshot({ path: `${shots}/study-home.png` });
    await page.getByRole("link", { name: "Start with practice" }).click();

    const annotate = new AnnotatePage(page);
    await annotate.waitForItem();
    await expect(annotate.progress).toHaveText("Practice 1 of 1");
    const practiceId = await annotate.assignmentId();
    const [practice] = (await assignmentsOf(study.id, "annotator")).filter((a) => a.id === practiceId);
    expect(practice.purpose).toBe("PRACTICE");
    const practiceItem = byExternal.get(practice.itemId)!;
    // a wrong answer: the practice feedback shows the right order
    await annotate.fillOrder([...practiceItem.order].reverse(), "drag");
    await expect(annotate.submitButton).toBeDisabled(); // no confidence pre-selected
    await annotate.setConfidence(2);
    await annotate.submit();
    await expect(annotate.feedback).toHaveAttribute("data-correct", "false");
    for (const [step, candidate] of practiceItem.order.entries()) await expect(annotate.slot(step)).toHaveAttribute("data-filled", letter(candidate));
    await page.screenshot({ path: `${shots}/practice-feedback.png` });
    await annotate.continueAfterFeedback();

    for (let n = 1; n <= 2; n++) {
      await annotate.waitForItem();
      await expect(annotate.progress).toHaveText(`Item ${n} of 2`);
      const assignmentId = await annotate.assignmentId();
      const assignment = (await assignmentsOf(study.id, "annotator")).find((a) => a.id === assignmentId)!;
      const item = byExternal.get(assignment.itemId)!;
      expect(await annotate.kind()).toBe(item.kind);
      if (item.kind === "enact-forward") {
        await annotate.zoomCandidate(0);
        await annotate.closeZoom();
        // drag and drop, with a swap between steps and a cleared step on the way
        await annotate.dragToStep(item.order[1], 0);
        await annotate.dragToStep(item.order[0], 1);
        await annotate.dragStepToStep(0, 1);
        await expect(annotate.slot(0)).toHaveAttribute("data-filled", letter(item.order[0]));
        await expect(annotate.slot(1)).toHaveAttribute("data-filled", letter(item.order[1]));
        await annotate.clearStep(1);
        for (let step = 1; step < item.order.length; step++) await annotate.dragToStep(item.order[step], step);
        await page.screenshot({ path: `${shots}/forward-filled.png` });
      } else {
        await expect(page.getByText("type its step number")).toBeVisible(); // the keyboard path is announced
        await annotate.fillOrder(item.order, "keyboard");
        // a filled step moves with a digit too: swap steps 1 and 2 and back
        await annotate.slot(0).focus();
        await page.keyboard.press("2");
        await expect(annotate.slot(0)).toHaveAttribute("data-filled", letter(item.order[1]));
        await annotate.slot(0).focus();
        await page.keyboard.press("2");
        await expect(annotate.slot(0)).toHaveAttribute("data-filled", letter(item.order[0]));
        await page.screenshot({ path: `${shots}/inverse-filled.png` });
      }
      await annotate.setConfidence(4);
      await annotate.submit();

      await expect.poll(async () => (await responsesOf(assignmentId)).length).toBe(1);
      const [response] = await responsesOf(assignmentId);
      expect(response.answer.order).toEqual(item.order);
      expect(response.correct).toBe(true);
      expect(response.confidenceRaw).toBe(4);
      const events = await storedEvents(assignmentId);
      expectGapless(events);
      const types = events.map((e) => e.type);
      expect(types[0]).toBe("item_shown");
      expect(types.at(-1)).toBe("submitted");
      if (item.kind === "enact-forward") {
        expect(types).toEqual(
          expect.arrayContaining(["image_zoomed", "image_closed", "candidate_picked", "slot_filled", "slots_swapped", "slot_cleared", "confidence_changed"]),
        );
        expect(events.filter((e) => e.type === "slot_filled").every((e) => e.payload.via === "drag")).toBe(true);
      } else {
        expect(types).toEqual(expect.arrayContaining(["slot_filled", "slots_swapped", "confidence_changed"]));
        expect(events.filter((e) => e.type === "slot_filled").every((e) => e.payload.via === "keyboard")).toBe(true);
      }
      // the stored active time never exceeds the wall time
      expect(response.activeMs).toBeLessThanOrEqual(response.wallMs);
    }

    await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/done$`));
    await expect(page.getByTestId("completion-code")).toHaveText("E2E-THANKS-7");
    await page.screenshot({ path: `${shots}/done.png` });
    const assignments = await assignmentsOf(study.id, "annotator");
    expect(assignments.map((a) => a.purpose)).toEqual(["PRACTICE", "MAIN", "MAIN"]);
    expect(assignments.every((a) => a.status === "SUBMITTED")).toBe(true);

    // the researcher's side: the item with its key, the response, and the replay
    const researcher = await browser.newContext({ storageState: storageStatePath("researcher") });
    const staff = await researcher.newPage();
    const main = assignments[1];
    await staff.goto(`/research/studies/${study.slug}/items/${main.itemId}`);
    await expect(staff.getByRole("cell", { name: /A1/ })).toBeVisible();
    await expect(staff.getByText(e2eUsers.annotator.name)).toBeVisible();
    await expect(staff.locator("body")).not.toContainText(e2eUsers.annotator.email);
    await expect(staff.getByText("correct", { exact: true })).toBeVisible();
    await staff.screenshot({ path: `${shots}/research-item.png`, fullPage: true });
    await staff.getByRole("link", { name: "Replay" }).click();
    await expect(staff).toHaveURL(new RegExp(`/replay/${main.id}$`));
    const total = (await storedEvents(main.id)).length;
    await expect(staff.getByTestId("replay-position")).toContainText(`Event 1 of ${total}`);
    await staff.getByRole("button", { name: "Next ▶" }).click();
    await expect(staff.getByTestId("replay-position")).toContainText(`Event 2 of ${total}`);
    await staff.getByRole("button", { name: "◀ Previous" }).click();
    await expect(staff.getByTestId("replay-position")).toContainText(`Event 1 of ${total}`);
    await staff.getByRole("button", { name: "End »" }).click();
    await expect(staff.getByTestId("replay-current")).toContainText("Submitted");
    // the final state equals the stored answer
    const [stored] = await responsesOf(main.id);
    for (const [step, candidate] of stored.answer.order.entries())
      await expect(staff.locator(`[data-slot="${step + 1}"]`)).toHaveAttribute("data-filled", letter(candidate));
    await staff.getByRole("button", { name: "« Start" }).click();
    await staff.getByLabel("Speed").selectOption("steps");
    await staff.getByRole("button", { name: "▶ Play" }).click();
    await expect(staff.getByTestId("replay-position")).toContainText("Event 3 of", { timeout: 5000 });
    await staff.screenshot({ path: `${shots}/research-replay.png`, fullPage: true });
    await researcher.close();
  });

  test("offline mid-item: keeps working, syncs when back online, every event stored once, the response once; a reload resumes", async ({ page, context }) => {
    test.setTimeout(120_000);
    const study = await createEnactStudy({
      items: [
        { kind: "enact-inverse", steps: 4 },
        { kind: "enact-forward", steps: 4 },
        { kind: "enact-forward", steps: 5 },
      ],
      members: ["annotator"],
      confidenceScale: "PERCENT",
    });
    studies.push(study);
    const itemOf = async (assignmentId: string) => {
      const assignment = (await assignmentsOf(study.id, "annotator")).find((a) => a.id === assignmentId)!;
      return study.items.find((item) => item.id === assignment.itemId)!;
    };
    const annotate = new AnnotatePage(page);
    const prefetched = page.waitForResponse((r) => r.url().includes("/next?exclude="));
    await annotate.open(study.slug);
    await prefetched; // the next item is in the browser before the network goes away
    await annotate.waitUntilSynced();

    const first = await annotate.assignmentId();
    const firstItem = await itemOf(first);
    await annotate.placeByKeyboard(firstItem.order[0], 0);
    await context.setOffline(true);
    for (let step = 1; step < firstItem.order.length; step++) await annotate.placeByKeyboard(firstItem.order[step], step);
    await annotate.setConfidence(70);
    await annotate.submit(); // the prefetched item shows at once, offline
    await expect(annotate.syncStatus).toHaveAttribute("data-offline", "true", { timeout: 15_000 });
    await expect(annotate.syncStatus).toContainText("saved on this device");
    await page.screenshot({ path: `${shots}/offline.png` });
    const second = await annotate.assignmentId();
    expect(second).not.toBe(first);
    const secondItem = await itemOf(second);
    await annotate.placeByKeyboard(secondItem.order[0], 0);
    expect(await responsesOf(first)).toHaveLength(0); // nothing reached the server yet
    const outbox = await page.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith("yardstick:outbox"))
        .map((k) => localStorage.getItem(k) ?? "")
        .join(""),
    );
    expect(outbox).toContain(first);

    await context.setOffline(false);
    await annotate.waitUntilSynced();
    await expect.poll(async () => (await responsesOf(first)).length).toBe(1);

    // a reload mid-item: the placed candidate is still there and the sequence goes on
    await page.reload();
    await annotate.waitForItem();
    expect(await annotate.assignmentId()).toBe(second);
    await expect(annotate.slot(0)).toHaveAttribute("data-filled", letter(secondItem.order[0]));
    for (let step = 1; step < secondItem.order.length; step++) await annotate.dragToStep(secondItem.order[step], step);
    await annotate.setConfidence(40);
    await annotate.submit();
    await annotate.waitForItem();
    await annotate.waitUntilSynced();

    for (const id of [first, second]) {
      const responses = await responsesOf(id);
      expect(responses).toHaveLength(1);
      expect(responses[0].correct).toBe(true);
      const events = await storedEvents(id);
      expectGapless(events);
      expect(events.filter((e) => e.type === "submitted")).toHaveLength(1);
      expect(events.filter((e) => e.type === "slot_filled")).toHaveLength((await itemOf(id)).order.length);
    }
    const secondEvents = await storedEvents(second);
    expect(secondEvents.filter((e) => e.type === "item_shown").map((e) => e.payload.resumed)).toEqual([false, true]);
    const [firstResponse] = await responsesOf(first);
    expect(firstResponse.confidenceRaw).toBeGreaterThan(50);
  });

  test("after the study's idle cap an overlay asks whether one is still working; the time away is not counted", async ({ page }) => {
    const study = await createEnactStudy({ items: [{ kind: "enact-forward", steps: 3 }], members: ["annotator"], idleCapSeconds: 2 });
    studies.push(study);
    const annotate = new AnnotatePage(page);
    await annotate.open(study.slug);
    const assignmentId = await annotate.assignmentId();
    const overlay = page.getByRole("alertdialog", { name: "Are you still working?" });
    await expect(overlay).toBeVisible({ timeout: 10_000 });
    await page.waitForTimeout(3000); // away: not counted
    await page.screenshot({ path: `${shots}/idle-overlay.png` });
    await overlay.getByRole("button", { name: /I.m back/ }).click();
    await expect(overlay).toBeHidden();
    await annotate.fillOrder(study.items[0].order, "keyboard");
    await annotate.setConfidence(5);
    await annotate.submit();
    await expect.poll(async () => (await responsesOf(assignmentId)).length).toBe(1);
    const events = await storedEvents(assignmentId);
    expectGapless(events);
    const types = events.map((e) => e.type);
    expect(types.indexOf("idle_shown")).toBeGreaterThan(0);
    expect(types.indexOf("idle_dismissed")).toBeGreaterThan(types.indexOf("idle_shown"));
    const [response] = await responsesOf(assignmentId);
    // the overlay spell (3 s and more) is in the wall time but not in the active time
    expect(response.wallMs - response.activeMs).toBeGreaterThanOrEqual(3000);
  });
});

test.describe("touch devices", () => {
  test("the touch backend: drag with a finger", async ({ browser }) => {
    const study = await createEnactStudy({ items: [{ kind: "enact-inverse", steps: 4 }], members: ["annotator"] });
    studies.push(study);
    const context = await browser.newContext({ storageState: storageStatePath("annotator"), hasTouch: true });
    try {
      const page = await context.newPage();
      expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
      const annotate = new AnnotatePage(page);
      await annotate.open(study.slug);
      const cdp = await context.newCDPSession(page);
      const centre = async (selector: string) => {
        const box = await annotate.task.locator(selector).boundingBox();
        if (!box) throw new Error(`${selector} is not visible`);
        return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      };
      const order = study.items[0].order;
      for (const [step, candidate] of order.entries()) {
        const from = await centre(`[data-candidate="${candidate}"]`);
        const to = await centre(`[data-slot="${step + 1}"]`);
        await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: from.x, y: from.y, id: 1 }] });
        await page.waitForTimeout(250); // longer than the backend's delayTouchStart
        for (let i = 1; i <= 8; i++) {
          await cdp.send("Input.dispatchTouchEvent", {
            type: "touchMove",
            touchPoints: [{ x: from.x + ((to.x - from.x) * i) / 8, y: from.y + ((to.y - from.y) * i) / 8, id: 1 }],
          });
          await page.waitForTimeout(20);
        }
        await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
        await expect(annotate.slot(step)).toHaveAttribute("data-filled", letter(candidate));
      }
      await page.screenshot({ path: `${shots}/touch-filled.png` });
      const assignmentId = await annotate.assignmentId();
      await annotate.setConfidence(3);
      await annotate.submit();
      await expect.poll(async () => (await responsesOf(assignmentId)).length).toBe(1);
      const filled = (await storedEvents(assignmentId)).filter((e) => e.type === "slot_filled");
      expect(filled).toHaveLength(order.length);
      expect(filled.every((e) => e.payload.via === "touch")).toBe(true);
      expect((await responsesOf(assignmentId))[0].correct).toBe(true);
    } finally {
      await context.close();
    }
  });
});
