import { randomUUID } from "node:crypto";
import { test, expect, type Response as PlaywrightResponse, type Browser, type Page } from "@playwright/test";
import { createEnactStudy, deleteStudy, type FixtureStudy } from "./annotate-fixtures";
import { createDashboardStudy, deleteDashboardStudy, type DashboardFixture } from "./dashboard-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import { createKindStudy, kindFixtureBuilders } from "./kind-fixtures";
import { e2eUsers, storageStatePath, type E2eUserName } from "./users";

/**
 * No page scrolls sideways, on a phone (390 x 844) or a laptop (1280 x 800): every staff page and
 * the annotator's pages, with realistic data (nine annotators with long names, step lengths 3..10,
 * an ENACT inverse item with seven actions, every other task kind). Wide content (tables) has to
 * scroll inside its own box or reflow. Each page's width is logged, and the page is screenshotted
 * into the test's output folder (SHOTS=1) for a look.
 */

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

let dashboard: DashboardFixture | null = null;
let enact: FixtureStudy | null = null;
let enactForward: FixtureStudy | null = null;
let consentStudy: FixtureStudy | null = null;
const kindStudies: Array<{ id: string; slug: string; kind: string }> = [];
let reviewSlug = "";
let reviewItemId = "";
let itemId = "";
let replayId = "";

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const db = e2eDb();
  dashboard = await createDashboardStudy({ annotators: 9, maxSteps: 10, perCell: 1, agreementPerCell: 1 });
  // participants who came from Prolific: their labels share a long start and differ only at the end
  for (const [i, a] of dashboard.annotators.slice(6).entries()) {
    const externalId = `5f8e2a1c9b7d4e3f6a0b${String(i + 1).padStart(4, "0")}`;
    await db.query(`UPDATE "User" SET name = $2, "externalSource" = 'prolific', "externalId" = $3 WHERE id = $1`, [
      a.id,
      `Prolific participant ${externalId}`,
      externalId,
    ]);
  }
  const item = await db.query(
    `SELECT i.id, a.id AS assignment FROM "Item" i JOIN "Assignment" a ON a."itemId" = i.id WHERE i."studyId" = $1 AND i.kind = 'enact-inverse' AND (i.tags->>'steps')::int = 10 LIMIT 1`,
    [dashboard.studyId],
  );
  itemId = item.rows[0].id;
  replayId = item.rows[0].assignment;

  const title = "Ordering household steps with quite a long study title that has to wrap on a phone";
  enact = await createEnactStudy({
    title,
    items: [{ kind: "enact-inverse", steps: 8 }],
    members: ["annotator"],
  });
  enactForward = await createEnactStudy({ title: "Forward ordering, ten steps (e2e)", items: [{ kind: "enact-forward", steps: 10 }], members: ["annotator"] });
  consentStudy = await createEnactStudy({
    title: "A study that asks for consent first (e2e)",
    items: [{ kind: "enact-forward", steps: 3 }],
    members: ["annotator"],
  });
  await db.query(`UPDATE "Study" SET "consentMarkdown" = $2, "consentVersion" = 1 WHERE id = $1`, [
    consentStudy.id,
    "# Taking part\n\nYou will put pictures of household tasks **in order**. We record your answers and how you work.\n\n- It takes about 10 minutes.\n- You can withdraw at any time.",
  ]);
  for (const kind of Object.keys(kindFixtureBuilders).filter((k) => !k.startsWith("enact-"))) {
    const created = await createKindStudy(kind, `Widths${randomUUID().slice(0, 6)}`, ["annotator"]);
    kindStudies.push({ id: created.id, slug: created.slug, kind });
  }

  // a review study over the ENACT batch, made as a researcher makes it
  const context = await browser.newContext({ storageState: storageStatePath("researcher") });
  const batch = await db.query(`SELECT id FROM "Batch" WHERE "studyId" = $1`, [enact.id]);
  const reviewers = await db.query(`SELECT id FROM "User" WHERE email = ANY($1::text[])`, [
    [e2eUsers.reviewer1.email, e2eUsers.reviewer2.email, e2eUsers.reviewer3.email],
  ]);
  reviewSlug = `widths-${randomUUID().slice(0, 8)}`;
  const made = await context.request.post("/api/review/studies", {
    data: {
      title: "Vetting the household steps before the pilot",
      slug: reviewSlug,
      batchIds: batch.rows.map((r) => r.id),
      reviewerIds: reviewers.rows.map((r) => r.id),
    },
  });
  expect(made.status(), await made.text()).toBeLessThan(300);
  reviewItemId = (
    await db.query(`SELECT ri.id FROM "ReviewItem" ri JOIN "ReviewStudy" rs ON rs.id = ri."reviewStudyId" WHERE rs.slug = $1 LIMIT 1`, [reviewSlug])
  ).rows[0].id;
  // an agent and a token, so their pages list something
  await context.request.post(`/api/studies/${dashboard.slug}/agents`, {
    data: { name: "GPT-5 agent with a long descriptive name", model: "gpt-5-2025-08-07-preview" },
  });
  await context.request.post("/api/tokens", { data: { name: "Notebook on the lab's shared analysis server", scopes: ["read"], expiresInDays: 30 } });
  await context.close();
});

test.afterAll(async () => {
  if (reviewSlug) await e2eDb().query(`DELETE FROM "ReviewStudy" WHERE slug = $1`, [reviewSlug]);
  for (const s of kindStudies) await deleteStudy(s.id);
  if (enact) await deleteStudy(enact.id);
  if (enactForward) await deleteStudy(enactForward.id);
  if (consentStudy) await deleteStudy(consentStudy.id);
  if (dashboard) await deleteDashboardStudy(dashboard);
  await closeE2eDb();
});

async function open(browser: Browser, user: E2eUserName, viewport: { width: number; height: number }): Promise<Page> {
  const mobile = viewport.width < 500;
  const context = await browser.newContext({ storageState: storageStatePath(user), viewport, hasTouch: mobile, isMobile: mobile });
  return context.newPage();
}

/** The page's widest extent after it settled (polled: a streamed page can briefly hold old and new parts). */
async function measure(page: Page, path: string, name: string, viewport: { width: number }): Promise<number> {
  const response = await page.goto(path);
  expect(response?.status(), `${path} loads`).toBeLessThan(400);
  let width = 0;
  await expect
    .poll(
      async () => {
        width = await page.evaluate(() => document.documentElement.scrollWidth);
        return width - (await page.evaluate(() => document.documentElement.clientWidth));
      },
      { timeout: 6_000 },
    )
    .toBeLessThanOrEqual(0)
    .catch(() => undefined);
  if (width > viewport.width)
    console.log(`${name} is ${width} px wide; what sticks out:\n${(await culprits(page)).join("\n") || (await culprits(page, true)).join("\n")}`);
  if (process.env.SHOTS) await screenshotSettled(page, `${viewport.width}-${name}.png`);
  return width;
}

/** For a look: the page once its requests settled, a work page taken over from the other window's tab (the widths above need neither). */
async function screenshotSettled(page: Page, file: string) {
  await page.waitForLoadState("networkidle").catch(() => undefined);
  const takeOver = page.getByRole("button", { name: "Take over here" });
  if (
    await takeOver.waitFor({ state: "visible", timeout: 2_000 }).then(
      () => true,
      () => false,
    )
  ) {
    await takeOver.click();
    await expect(takeOver).toBeHidden();
    await page.waitForLoadState("networkidle").catch(() => undefined);
  }
  await page.screenshot({ path: test.info().outputPath(file), fullPage: true });
}

/** The elements that end past the window while their parent does not: where a page gets too wide. */
async function culprits(page: Page, showClipped = false): Promise<string[]> {
  return page.evaluate((showClipped) => {
    const limit = document.documentElement.clientWidth + 1;
    const found: string[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      const parent = element.parentElement;
      if (!parent || element.getBoundingClientRect().right <= limit || parent.getBoundingClientRect().right > limit) continue;
      // inside a box that scrolls or clips, it does not widen the page (unless it is positioned out of that box)
      let clipped = false;
      for (let up: Element | null = parent; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== "visible") clipped = true;
      const position = getComputedStyle(element).position;
      if (clipped && position !== "absolute" && position !== "fixed" && !showClipped) continue;
      const rect = element.getBoundingClientRect();
      const path = [element, parent, parent.parentElement]
        .map((e) =>
          e
            ? `${e.tagName.toLowerCase()}.${String(e.getAttribute("class") ?? "")
                .split(" ")
                .slice(0, 6)
                .join(".")}`
            : "",
        )
        .join(" < ");
      found.push(`  ${Math.round(rect.width)} px from x=${Math.round(rect.x)}: ${path} "${(element.textContent ?? "").trim().slice(0, 40)}"`);
      if (found.length >= 12) break;
    }
    // text that runs out of its box (a long word, a line that may not wrap)
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && found.length < 12; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const right = range.getBoundingClientRect().right;
      const box = node.parentElement;
      if (!box || right <= limit || box.getBoundingClientRect().right > limit) continue;
      let clipped = false;
      for (let up: Element | null = box; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== "visible") clipped = true;
      if (!clipped)
        found.push(
          `  text to x=${Math.round(right)} in ${box.tagName.toLowerCase()}.${String(box.getAttribute("class") ?? "")
            .split(" ")
            .slice(0, 6)
            .join(".")}: "${(node.textContent ?? "").trim().slice(0, 60)}"`,
        );
    }
    return found;
  }, showClipped);
}

async function checkAll(page: Page, viewport: { width: number }, pages: Array<[string, string]>) {
  for (const [name, path] of pages) {
    const width = await measure(page, path, name, viewport);
    console.log(`${viewport.width}px: ${String(width).padStart(5)} ${width > viewport.width ? "WIDE" : "ok  "} ${name}`);
    expect.soft(width, `${name} (${path}) is no wider than the ${viewport.width} px window`).toBeLessThanOrEqual(viewport.width);
  }
}

for (const viewport of VIEWPORTS) {
  test(`staff pages at ${viewport.width}x${viewport.height} are no wider than the window`, async ({ browser }) => {
    test.setTimeout(420_000);
    const page = await open(browser, "admin", viewport);
    const s = `/research/studies/${dashboard!.slug}`;
    await checkAll(page, viewport, [
      ["studies", "/research"],
      ["new-study", "/research/studies/new"],
      ["overview", s],
      ["dashboard", `${s}/dashboard`],
      ["annotators", `${s}/annotators`],
      ["participants", `${s}/participants`],
      ["agents", `${s}/agents`],
      ["exports", `${s}/exports`],
      ["settings", `${s}/settings`],
      ["report", `${s}/report`],
      ["audit", `${s}/audit`],
      ["item", `${s}/items/${itemId}`],
      ["replay", `${s}/replay/${replayId}`],
      ["preview", `${s}/preview`],
      ["help", "/help"],
      ["help-doc", "/help/readme"],
      ["tokens", "/research/tokens"],
      ["api", "/research/api"],
      ["admin-users", "/admin/users"],
      ["admin-import", "/admin/import"],
      ["review-list", "/review"],
      ["review-new", "/review/new"],
      ["review-results", `/review/${reviewSlug}/results`],
      ["review-item", `/review/${reviewSlug}/items/${reviewItemId}`],
    ]);
    await page.context().close();
  });

  test(`annotator and reviewer pages at ${viewport.width}x${viewport.height} are no wider than the window`, async ({ browser }) => {
    test.setTimeout(420_000);
    const page = await open(browser, "annotator", viewport);
    const pages: Array<[string, string]> = [
      ["my-studies", "/studies"],
      ["consent", `/s/${consentStudy!.slug}/consent`],
      ["work-enact-inverse-7", `/s/${enact!.slug}/work`],
      ["work-enact-forward-10", `/s/${enactForward!.slug}/work`],
      ...kindStudies.map((k): [string, string] => [`work-${k.kind}`, `/s/${k.slug}/work`]),
      ["done", `/s/${enact!.slug}/done`],
      ["study-home", `/s/${enact!.slug}`],
      ["tutorial", `/s/${enact!.slug}/tutorial`],
      ["withdraw", `/s/${enact!.slug}/withdraw`],
    ];
    await checkAll(page, viewport, pages);
    // the ENACT inverse item of seven actions: every candidate can be brought on screen and tapped
    // (none hidden in an inner scroll), and a panel kept on screen takes at most half of it
    const isClaim = (response: PlaywrightResponse) =>
      response.request().method() === "POST" && /\/api\/annotate\/assignments\/[^/]+\/writer$/.test(new URL(response.url()).pathname);
    const claimed = page.waitForResponse(isClaim);
    await page.goto(`/s/${enact!.slug}/work`);
    const library = page.getByTestId("task").locator('section[aria-label="Candidate actions"]');
    const candidates = library.locator("[data-candidate]");
    // the other viewport's test opened the same item in a tab of its own a moment ago: that tab
    // still holds it (lib/responses/writer.ts), so this one takes it over, as a person would (the
    // page then loads afresh as the item's writer)
    if ((await claimed).status() === 409) {
      const reloaded = page.waitForEvent("load");
      await page.getByTestId("other-writer").getByRole("button", { name: "Take over here" }).click();
      await reloaded;
    }
    await expect(candidates).toHaveCount(7, { timeout: 20_000 });
    for (let index = 0; index < 7; index++) {
      const candidate = candidates.nth(index);
      // the item may render once more as its claim settles: each check is taken again on the element as it then is
      await expect(async () => {
        await candidate.scrollIntoViewIfNeeded({ timeout: 2_000 });
        const hit = await candidate.evaluate((element) => {
          const rect = element.getBoundingClientRect();
          const top = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
          return top !== null && (element === top || element.contains(top));
        });
        expect(hit, `${await candidate.getAttribute("aria-label")} can be tapped`).toBe(true);
      }).toPass({ timeout: 15_000 });
    }
    const position = await library.evaluate((element) => getComputedStyle(element).position);
    if (position === "sticky")
      expect((await library.boundingBox())!.height, "a candidate panel kept on screen leaves room for the steps").toBeLessThanOrEqual(viewport.height / 2);

    // an ended participation
    const annotatorId = (await e2eDb().query(`SELECT id FROM "User" WHERE email = $1`, [e2eUsers.annotator.email])).rows[0].id;
    await e2eDb().query(
      `UPDATE "StudyMember" SET status = 'EXCLUDED', "statusReason" = 'failed 3 of 5 gold items', "statusAt" = now() WHERE "studyId" = $1 AND "userId" = $2`,
      [consentStudy!.id, annotatorId],
    );
    await checkAll(page, viewport, [["ended", `/s/${consentStudy!.slug}/ended`]]);
    await e2eDb().query(`UPDATE "StudyMember" SET status = 'ACTIVE', "statusReason" = NULL WHERE "studyId" = $1 AND "userId" = $2`, [
      consentStudy!.id,
      annotatorId,
    ]);
    await page.context().close();

    // signed out: the front page, sign-in, a study's entry link (working and not), and the page after withdrawing
    const anonymous = await browser.newContext({ viewport, hasTouch: viewport.width < 500, isMobile: viewport.width < 500 });
    const visitor = await anonymous.newPage();
    const entryToken = `pw-${randomUUID()}`;
    await e2eDb().query(`UPDATE "Study" SET "entryToken" = $2 WHERE id = $1`, [consentStudy!.id, entryToken]);
    await checkAll(visitor, viewport, [
      ["home", "/"],
      ["signin", "/signin"],
      ["join-link", `/join/${entryToken}`],
      ["join-bad-link", "/join/no-such-entry-link-0000"],
      ["join-bad-invite", "/join/invite/no-such-invite-0000"],
      ["withdrawn", `/withdrawn?study=${consentStudy!.slug}`],
    ]);
    await anonymous.close();

    const reviewer = await open(browser, "reviewer1", viewport);
    await checkAll(reviewer, viewport, [
      ["reviewer-list", "/review"],
      ["reviewer-work", `/review/${reviewSlug}`],
    ]);
    await reviewer.context().close();
  });
}
