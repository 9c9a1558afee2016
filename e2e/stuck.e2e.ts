import { randomUUID } from "node:crypto";
import { test, expect, devices, type Browser, type Page } from "@playwright/test";
import { assignmentsOf, createEnactStudy, deleteStudy, responsesOf, storedEvents, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import { createEsiStudy } from "./esi-fixtures";
import { createGridwmStudy } from "./gridwm-fixtures";
import { AnnotatePage } from "./pages/annotate-page";
import { e2eUsers, storageStatePath, type E2eUserName } from "./users";

/**
 * Nobody stuck, honest endings, the rough edges. What a person sees: an item whose
 * submission never reached the server reopens on another device; a stalled server says what
 * happens and offers a retry; a desktop-only study on a phone; each ending with its own words and
 * code; ESI practice feedback in its condition; and a walk of every page route as every role,
 * none answering 5xx. Screenshots at 1280x800 and 390x844 go to test-results/stuck.
 */

const shots = "test-results/stuck";
let studies: Array<{ id: string }> = [];

test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

async function track<T extends { id: string }>(study: Promise<T>): Promise<T> {
  const created = await study;
  studies.push(created);
  return created;
}

async function contextAs(browser: Browser, user: E2eUserName, options: Parameters<Browser["newContext"]>[0] = {}) {
  return browser.newContext({ storageState: storageStatePath(user), viewport: { width: 1280, height: 800 }, ...options });
}

/** Both sizes of every page this spec looks at. */
async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${shots}/${name}-1280.png` });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/${name}-390.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

test.describe("nobody stuck", () => {
  test("an item submitted on a device whose answer never arrived reopens on another device, events kept", async ({ browser }) => {
    test.setTimeout(120_000);
    const study: FixtureStudy = await track(createEnactStudy({ items: [{ kind: "enact-forward", steps: 3 }], members: ["annotator2"] }));
    const item = study.items[0];

    // device 1: answers, the events (with `submitted`) reach the server, the answer does not; then the tab is gone
    const first = await contextAs(browser, "annotator2");
    const page1 = await first.newPage();
    await page1.route("**/api/annotate/responses", (route) => route.abort("connectionreset"));
    const annotate1 = new AnnotatePage(page1);
    await annotate1.open(study.slug);
    const assignmentId = await annotate1.assignmentId();
    await annotate1.fillOrder(item.order, "keyboard");
    await annotate1.setConfidence(4);
    await annotate1.submitButton.click();
    await expect.poll(async () => (await storedEvents(assignmentId)).some((e) => e.type === "submitted"), { timeout: 15_000 }).toBe(true);
    await first.close();
    expect(await responsesOf(assignmentId)).toEqual([]);

    // device 2 (no outbox of device 1): the item, reopened, with the answer as it was and Submit enabled
    const second = await contextAs(browser, "annotator2");
    const page2 = await second.newPage();
    const annotate2 = new AnnotatePage(page2);
    await annotate2.open(study.slug);
    expect(await annotate2.assignmentId()).toBe(assignmentId);
    await expect(page2.getByTestId("reopened-notice")).toContainText("never reached the server");
    for (const [step, candidate] of item.order.entries())
      await expect(annotate2.slot(step)).toHaveAttribute("data-filled", String.fromCharCode(65 + candidate));
    await expect(annotate2.submitButton).toBeEnabled();
    await shoot(page2, "reopened");
    await annotate2.submitButton.click();
    await expect(page2).toHaveURL(new RegExp(`/s/${study.slug}/done$`), { timeout: 20_000 });
    await expect(page2.getByTestId("completion-code")).toBeVisible();

    const [response] = await responsesOf(assignmentId);
    expect(response.answer.order).toEqual(item.order);
    const types = (await storedEvents(assignmentId)).map((e) => e.type);
    expect(types.filter((t) => t === "submitted")).toHaveLength(2);
    expect(types).toContain("submission_reopened");
    expect(types.indexOf("submission_reopened")).toBeGreaterThan(types.indexOf("submitted"));
    await second.close();
  });

  test("a server that stalls on the next item: what happens, retries with backoff, and a retry button", async ({ browser }) => {
    test.setTimeout(120_000);
    const study: FixtureStudy = await track(
      createEnactStudy({
        items: [
          { kind: "enact-forward", steps: 3 },
          { kind: "enact-forward", steps: 4 },
        ],
        members: ["annotator2"],
      }),
    );
    const context = await contextAs(browser, "annotator2");
    const page = await context.newPage();
    let stalled = true;
    let asked = 0;
    // when the session itself asked again (the prefetch asks with ?exclude= on its own schedule)
    const retries: number[] = [];
    await page.route("**/api/annotate/studies/*/next*", async (route) => {
      if (!stalled) return route.continue();
      asked += 1;
      if (!route.request().url().includes("exclude=")) retries.push(Date.now());
      await route.fulfill({
        status: 503,
        headers: { "retry-after": "2", "content-type": "application/json" },
        body: JSON.stringify({ error: "The server is busy: try again shortly", code: "UNAVAILABLE" }),
      });
    });
    const annotate = new AnnotatePage(page);
    await annotate.open(study.slug);
    const firstId = await annotate.assignmentId();
    const [firstAssignment] = (await assignmentsOf(study.id, "annotator2")).filter((a) => a.id === firstId);
    const order = study.items.find((i) => i.id === firstAssignment.itemId)!.order;
    await annotate.fillOrder(order, "keyboard");
    await annotate.setConfidence(3);
    await annotate.submitButton.click();

    const stall = page.getByTestId("next-stalled");
    await expect(stall).toBeVisible({ timeout: 15_000 });
    await expect(stall).toContainText("HTTP 503");
    await expect(stall).toContainText(/Trying again in \d+ s/);
    await expect(stall).toContainText("nothing is lost");
    // it retries by itself, never sooner than the server's Retry-After (2 s), and the waits grow (2, 2, 4 s)
    await expect.poll(async () => Number(await stall.getAttribute("data-attempt")), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => retries.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
    const waits = retries.slice(1, 4).map((at, i) => at - retries[i]);
    for (const wait of waits) expect(wait, `waits ${waits.join(", ")} ms: Retry-After kept`).toBeGreaterThanOrEqual(1800);
    expect(waits[2], `waits ${waits.join(", ")} ms: the third is longer`).toBeGreaterThanOrEqual(waits[0] + 1500);
    await shoot(page, "stalled");
    const before = asked;
    stalled = false;
    await page.getByRole("button", { name: "Try again now" }).click();
    await expect(annotate.task.locator("[data-slot]").first()).toBeVisible({ timeout: 15_000 });
    expect(await annotate.assignmentId()).not.toBe(firstId);
    expect(before).toBeGreaterThanOrEqual(3);
    expect((await responsesOf(firstId)).length).toBe(1);
    await context.close();
  });
});

test.describe("desktop only", () => {
  test("a phone gets a notice instead of the task; the researcher gets a device requirement to copy", async ({ browser }) => {
    test.setTimeout(90_000);
    const study: FixtureStudy = await track(createEnactStudy({ items: [{ kind: "enact-forward", steps: 3 }], members: ["annotator2"] }));
    await e2eDb().query(`UPDATE "Study" SET "desktopOnly" = true WHERE id = $1`, [study.id]);

    const phone = await browser.newContext({ ...devices["Pixel 7"], storageState: storageStatePath("annotator2") });
    const page = await phone.newPage();
    await page.goto(`/s/${study.slug}/work`);
    await expect(page.getByTestId("desktop-only")).toContainText("Please use a computer for this study");
    await expect(page.getByTestId("task")).toHaveCount(0);
    await page.screenshot({ path: `${shots}/desktop-only-phone.png`, fullPage: true });
    // nothing was handed out to the phone
    expect(await assignmentsOf(study.id, "annotator2")).toEqual([]);
    await phone.close();

    // a tablet posing as a desktop (iPadOS Safari sends a Mac's user agent): its only pointer is a finger
    const tablet = await browser.newContext({
      storageState: storageStatePath("annotator2"),
      userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
      viewport: { width: 1024, height: 1366 },
      hasTouch: true,
      isMobile: true,
    });
    const tabletPage = await tablet.newPage();
    const touchOnly = await tabletPage.evaluate(() => window.matchMedia("(pointer: coarse) and (not (any-pointer: fine))").matches).catch(() => false);
    await tabletPage.goto(`/s/${study.slug}/work`);
    if (touchOnly) await expect(tabletPage.getByTestId("desktop-only")).toBeVisible();
    await tablet.close();

    // a computer gets the task
    const desk = await contextAs(browser, "annotator2");
    const deskPage = await desk.newPage();
    await new AnnotatePage(deskPage).open(study.slug);
    await desk.close();

    const researcher = await contextAs(browser, "researcher");
    const settings = await researcher.newPage();
    await settings.goto(`/research/studies/${study.slug}/settings`);
    await expect(settings.getByRole("checkbox", { name: /Desktop only/ })).toBeChecked();
    await expect(settings.getByTestId("device-requirement")).toHaveValue(/Phones and tablets are not supported/);
    await settings.getByTestId("device-requirement").scrollIntoViewIfNeeded();
    await shoot(settings, "settings-devices");
    await researcher.close();
  });
});

test.describe("endings", () => {
  async function studyWithEndings(members: E2eUserName[], items = 1, practice = false) {
    const study: FixtureStudy = await track(
      createEnactStudy({
        items: [
          ...(practice ? [{ kind: "enact-forward" as const, steps: 3, practice: true }] : []),
          ...Array.from({ length: items }, () => ({ kind: "enact-forward" as const, steps: 3 })),
        ],
        members,
        completionCode: "ALL-DONE-1",
      }),
    );
    await e2eDb().query(`UPDATE "Study" SET endings = $2 WHERE id = $1`, [
      study.id,
      JSON.stringify({
        failedScreening: { code: "SCREENED-OUT-1", redirectUrl: null },
        excluded: { code: "EXCLUDED-1", redirectUrl: null },
        timedOut: { code: "TIMED-OUT-1", redirectUrl: null },
        full: { code: "NO-PLACE-1", redirectUrl: null },
      }),
    ]);
    return study;
  }

  test("failing the practice pass mark is its own ending with its own code, not a talk of gold checks", async ({ browser }) => {
    test.setTimeout(90_000);
    const study = await studyWithEndings(["annotator2"], 1, true);
    await e2eDb().query(`UPDATE "Study" SET "practicePassMark" = 1 WHERE id = $1`, [study.id]);
    const context = await contextAs(browser, "annotator2");
    const page = await context.newPage();
    const annotate = new AnnotatePage(page);
    await annotate.open(study.slug);
    const practice = study.items.find((i) => i.practice)!;
    await annotate.fillOrder([...practice.order].reverse(), "keyboard");
    await annotate.setConfidence(2);
    await annotate.submit();
    await annotate.continueAfterFeedback().catch(() => undefined);
    await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/ended$`), { timeout: 20_000 });
    await expect(page.getByTestId("ended-title")).toHaveText("The practice did not reach the pass mark");
    await expect(page.getByTestId("ended-title")).toHaveAttribute("data-ending", "failedScreening");
    await expect(page.getByTestId("completion-code")).toHaveText("SCREENED-OUT-1");
    await expect(page.getByText(/checks with a known answer/)).toHaveCount(0);
    await shoot(page, "ended-failed-screening");

    // timed out and excluded (gold): each its own words and code
    const user = await e2eDb().query(`SELECT id FROM "User" WHERE email = $1`, [e2eUsers.annotator2.email]);
    await e2eDb().query(
      `UPDATE "StudyMember" SET status = 'TIMED_OUT', "statusReason" = 'session time limit of 30 minutes reached' WHERE "studyId" = $1 AND "userId" = $2`,
      [study.id, user.rows[0].id],
    );
    await page.goto(`/s/${study.slug}/ended`);
    await expect(page.getByTestId("ended-title")).toHaveText("The time for this study is over");
    await expect(page.getByTestId("completion-code")).toHaveText("TIMED-OUT-1");
    await e2eDb().query(
      `UPDATE "StudyMember" SET status = 'EXCLUDED', "statusReason" = 'failed 2 of 3 gold items (rule: 2 failed gold items)' WHERE "studyId" = $1 AND "userId" = $2`,
      [study.id, user.rows[0].id],
    );
    await page.goto(`/s/${study.slug}/ended`);
    await expect(page.getByText(/checks with a known answer/)).toBeVisible();
    await expect(page.getByTestId("completion-code")).toHaveText("EXCLUDED-1");
    await shoot(page, "ended-excluded");
    await context.close();
  });

  test("a study with no place left says so and gives the 'full' code; /done answers 200 from the server", async ({ browser }) => {
    test.setTimeout(90_000);
    const study = await studyWithEndings(["annotator", "annotator2"], 1);
    // annotator takes the only place
    const first = await contextAs(browser, "annotator");
    const firstPage = await first.newPage();
    await new AnnotatePage(firstPage).open(study.slug);
    await first.close();

    const context = await contextAs(browser, "annotator2");
    const page = await context.newPage();
    const direct = await page.request.get(`/s/${study.slug}/done`);
    expect(direct.status()).toBe(200);
    await page.goto(`/s/${study.slug}/work`);
    await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/done$`));
    await expect(page.getByRole("heading", { name: "This study is full" })).toBeVisible();
    await expect(page.getByTestId("completion-code")).toHaveText("NO-PLACE-1");
    await shoot(page, "done-full");
    await context.close();
  });
});

test("ESI practice answered from one view shows that view on feedback, not an exploration at step 0", async ({ browser }) => {
  test.setTimeout(90_000);
  const study = await track(createEsiStudy({ user: "annotator2", work: [{ item: "esi-demo-bedroom-key-blue", condition: "passive-single" }] }));
  await e2eDb().query(`UPDATE "Item" SET practice = true WHERE "studyId" = $1`, [study.id]);
  await e2eDb().query(`UPDATE "Assignment" SET purpose = 'PRACTICE' WHERE "studyId" = $1`, [study.id]);
  const context = await contextAs(browser, "annotator2");
  const page = await context.newPage();
  await page.goto(`/s/${study.slug}/work`);
  await expect(page.locator('[data-testid="esi-player"][data-mode="passive-single"]')).toBeVisible({ timeout: 20_000 });
  await page.locator("[data-option]").first().click();
  await page.locator("#esi-confidence").focus();
  await page.keyboard.press("End");
  await page.getByRole("button", { name: "Submit", exact: true }).click();
  await expect(page.getByTestId("practice-feedback")).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[data-testid="esi-player"][data-mode="passive-single"]')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/Step \d+ of \d+/)).toHaveCount(0);
  await expect(page.locator('[data-testid="esi-player"][data-mode="active"]')).toHaveCount(0);
  await shoot(page, "esi-practice-feedback");
  await context.close();
});

test("ESI's Keys popover lists the keys its instructions use, and they work", async ({ browser }) => {
  test.setTimeout(90_000);
  const study = await track(createEsiStudy({ user: "annotator2", work: [{ item: "esi-demo-kitchen-apples", condition: "active" }] }));
  const context = await contextAs(browser, "annotator2");
  const page = await context.newPage();
  await page.goto(`/s/${study.slug}/work`);
  await expect(page.locator('[data-testid="esi-player"][data-mode="active"]')).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "⌨ Keys" }).click();
  const keys = page.getByTestId("shortcuts").locator("kbd");
  const listed = await keys.allTextContents();
  for (const key of ["W", "A", "S", "D", "R", "F", "←", "→", "↑", "↓", "1–9"]) expect(listed, `the Keys popover lists ${key}`).toContain(key);
  await shoot(page, "esi-keys");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("shortcuts")).toBeHidden();
  // the keys do what the list says (W costs a step even where it is refused)
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("w");
  await expect(page.getByTestId("esi-step-counter")).toHaveText(/^Step 1 of/);
  await context.close();
});

test("the dashboard counts main work as begun once shown, not the item fetched in advance", async ({ browser }) => {
  test.setTimeout(90_000);
  const study: FixtureStudy = await track(
    createEnactStudy({ items: [3, 3, 3].map((steps) => ({ kind: "enact-forward" as const, steps })), members: ["annotator2"] }),
  );
  const work = await contextAs(browser, "annotator2");
  const annotate = new AnnotatePage(await work.newPage());
  await annotate.open(study.slug);
  // one item on screen (started), the next one prefetched behind it (assigned, unseen)
  await expect
    .poll(
      async () =>
        (await assignmentsOf(study.id, "annotator2"))
          .map((a) => a.status)
          .sort()
          .join(","),
      { timeout: 15_000 },
    )
    .toBe("ASSIGNED,STARTED");

  const researcher = await contextAs(browser, "researcher");
  const page = await researcher.newPage();
  await page.goto(`/research/studies/${study.slug}/dashboard`);
  const progress = page.locator("table").filter({ has: page.getByText("Main done / begun") });
  const row = progress.getByRole("row").filter({ hasText: e2eUsers.annotator2.name });
  await expect(row.getByRole("cell").nth(1)).toHaveText("0 / 1");
  await researcher.close();
  await work.close();
});

test("rough edges: favicon, versions, pseudonyms, 'left out'", async ({ browser, request }) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/image/);
  const study: FixtureStudy = await track(createEnactStudy({ items: [{ kind: "enact-forward", steps: 3 }], members: ["annotator2"] }));
  const researcher = await contextAs(browser, "researcher");
  const page = await researcher.newPage();
  const missing: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 404 && /favicon|icon/.test(response.url())) missing.push(response.url());
  });
  await page.goto("/research");
  await expect(page.locator("link[rel='icon']").first()).toHaveAttribute("href", /icon/);
  await expect(page.getByRole("link", { name: study.title }).first().getByTestId("study-version")).toHaveText("version 1");
  await page.goto(`/research/studies/${study.slug}/annotators`);
  await expect(page.getByText("left out ()")).toHaveCount(0);
  await page.goto(`/research/studies/${study.slug}/items/${study.items[0].id}`);
  await expect(page.getByText(/shown by pseudonym \(A1, A2/)).toBeVisible();
  expect(missing).toEqual([]);

  // GridWM: an encoding exists (choice-nominal), there is just nothing to agree on yet; the plan is not called ENACT's own
  const gridwm = await track(createGridwmStudy({ picks: [{ kind: "gridwm-next-obs" }], members: ["annotator2"] }));
  await page.goto(`/research/studies/${gridwm.slug}/dashboard`);
  await expect(page.getByTestId("agreement-empty")).toContainText("No item has two annotators");
  await expect(page.getByText("This study's task kinds define no agreement encoding")).toHaveCount(0);
  await expect(page.getByTestId("plan-design")).toContainText("applied to gridwm-next-obs");
  await expect(page.getByTestId("plan-design")).not.toContainText("ENACT's design");
  await page.getByTestId("plan-design").scrollIntoViewIfNeeded();
  await shoot(page, "gridwm-dashboard");
  await researcher.close();
});

/**
 * Every page route as every role (signed out, annotator, researcher, admin) with real ids where
 * the route takes one: nothing answers 5xx.
 */
test("a walk of every page route as each role answers below 500", async ({ browser }) => {
  test.setTimeout(600_000);
  const study: FixtureStudy = await track(
    createEnactStudy({
      items: [
        { kind: "enact-forward", steps: 3 },
        { kind: "enact-forward", steps: 3 },
      ],
      members: ["annotator"],
    }),
  );
  const entryToken = randomUUID().replace(/-/g, "");
  await e2eDb().query(`UPDATE "Study" SET "entryToken" = $2 WHERE id = $1`, [study.id, entryToken]);
  // the annotator answers one item, so that replay and item pages have something to show
  const work = await contextAs(browser, "annotator");
  const workPage = await work.newPage();
  const annotate = new AnnotatePage(workPage);
  await annotate.open(study.slug);
  const assignmentId = await annotate.assignmentId();
  const [assigned] = (await assignmentsOf(study.id, "annotator")).filter((a) => a.id === assignmentId);
  await annotate.fillOrder(study.items.find((i) => i.id === assigned.itemId)!.order, "keyboard");
  await annotate.setConfidence(4);
  await annotate.submit();
  await work.close();

  const routes = [
    "/",
    "/signin",
    "/withdrawn",
    `/join/${entryToken}?PROLIFIC_PID=${"a".repeat(24)}&STUDY_ID=${"b".repeat(24)}&SESSION_ID=${"c".repeat(24)}`,
    "/join/invite/not-a-real-invite-token",
    "/studies",
    `/s/${study.slug}`,
    `/s/${study.slug}/consent`,
    `/s/${study.slug}/tutorial`,
    `/s/${study.slug}/work`,
    `/s/${study.slug}/done`,
    `/s/${study.slug}/ended`,
    `/s/${study.slug}/withdraw`,
    "/research",
    "/research/studies/new",
    `/research/studies/${study.slug}`,
    `/research/studies/${study.slug}/annotators`,
    `/research/studies/${study.slug}/audit`,
    `/research/studies/${study.slug}/dashboard`,
    `/research/studies/${study.slug}/exports`,
    `/research/studies/${study.slug}/items/${assigned.itemId}`,
    `/research/studies/${study.slug}/participants`,
    `/research/studies/${study.slug}/replay/${assignmentId}`,
    `/research/studies/${study.slug}/settings`,
    "/admin/import",
    "/admin/users",
    "/review",
    "/review/new",
    "/review/no-such-review",
    "/review/no-such-review/results",
    "/review/no-such-review/items/no-such-item",
  ];
  const failures: string[] = [];
  for (const role of [null, "annotator", "researcher", "admin"] as const) {
    const context = role ? await contextAs(browser, role) : await browser.newContext();
    const page = await context.newPage();
    for (const route of routes) {
      const statuses: number[] = [];
      page.on("response", (response) => {
        if (response.request().resourceType() === "document") statuses.push(response.status());
      });
      // the document's status is known once the response starts (a page that fails on the server answers 500 there)
      await page.goto(route, { waitUntil: "commit" }).catch((error: Error) => failures.push(`${role ?? "signed out"} ${route}: ${error.message}`));
      page.removeAllListeners("response");
      for (const status of statuses) if (status >= 500) failures.push(`${role ?? "signed out"} ${route}: HTTP ${status}`);
    }
    await context.close();
  }
  expect(failures).toEqual([]);
});
