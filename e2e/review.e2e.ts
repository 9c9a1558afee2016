import { test, expect, type Browser, type Page } from "@playwright/test";
import { assignmentsOf, createEnactStudy, deleteStudy, type FixtureStudy } from "./annotate-fixtures";
import { e2eDb } from "./db";
import { e2eUsers, storageStatePath, type E2eUserName } from "./users";

/**
 * Item verification end to end (docs/review.md): a researcher creates a review study over an
 * ENACT batch with the form; three reviewers (two annotator-role accounts, one researcher) vet
 * the first item by keyboard; the majority fails it; it drops out of the study: the annotator is
 * never given it. Screenshots of every page go to the test's output folder.
 */

async function as(browser: Browser, user: E2eUserName): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStatePath(user), viewport: { width: 1280, height: 720 } });
  return context.newPage();
}

async function shot(page: Page, name: string, testInfo: { outputPath: (name: string) => string }, fullPage = false) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage });
}

test.describe("item verification", () => {
  let study: FixtureStudy | null = null;
  let reviewSlug: string | null = null;

  test.afterEach(async () => {
    if (reviewSlug) await e2eDb().query(`DELETE FROM "ReviewStudy" WHERE slug = $1`, [reviewSlug]);
    if (study) await deleteStudy(study.id);
    study = null;
    reviewSlug = null;
  });

  test("three reviewers vet an ENACT item by keyboard and it drops out of the study", async ({ browser }, testInfo) => {
    test.setTimeout(120_000);
    const title = `ENACT review e2e ${Date.now().toString(36)}`;
    study = await createEnactStudy({
      title,
      items: [
        { kind: "enact-forward", steps: 5 },
        { kind: "enact-inverse", steps: 4 },
      ],
      members: ["annotator"],
      overlap: 1,
    });
    const [vetted, other] = study.items;
    reviewSlug = `review-e2e-${Date.now().toString(36)}`;

    // --- the researcher creates the review study -------------------------------------------
    const researcher = await as(browser, "researcher");
    await researcher.goto("/review");
    await expect(researcher.getByRole("link", { name: "Review", exact: true })).toHaveAttribute("aria-current", "page");
    await researcher.getByRole("link", { name: "New review study" }).first().click();
    await expect(researcher).toHaveURL(/\/review\/new$/);
    await researcher.getByLabel("Title").fill(`Vetting ${title}`);
    await researcher.getByLabel("Slug").fill(reviewSlug);
    await researcher.getByRole("checkbox", { name: `Review enact-sample (e2e) of ${title}` }).check();
    // the study's annotator is offered but cannot be picked: reviewers see the keys
    await expect(researcher.getByRole("checkbox", { name: new RegExp(e2eUsers.annotator.name) })).toBeDisabled();
    for (const name of ["reviewer1", "reviewer2", "reviewer3"] as const)
      await researcher.getByRole("checkbox", { name: new RegExp(e2eUsers[name].name) }).check();
    await expect(researcher.getByLabel("Axis 1 label")).toHaveValue("Correctness");
    await expect(researcher.getByLabel("Axis 3 label")).toHaveValue("Non-triviality");
    await shot(researcher, "1-create-form", testInfo, true);
    await researcher.getByRole("button", { name: "Create the review study" }).click();
    await expect(researcher).toHaveURL(new RegExp(`/review/${reviewSlug}/results$`));
    await expect(researcher.locator('[data-count="items"]')).toHaveText("2");

    // --- three reviewers, by keyboard ---------------------------------------------------------
    const plans: Array<{ user: E2eUserName; failCorrectness: string | null }> = [
      { user: "reviewer1", failCorrectness: "Step 3's image shows the fridge still closed" },
      { user: "reviewer2", failCorrectness: "The third state does not follow from the action" },
      { user: "reviewer3", failCorrectness: null },
    ];
    for (const [n, plan] of plans.entries()) {
      const page = await as(browser, plan.user);
      await page.goto(`/review/${reviewSlug}`);
      const screen = page.getByTestId("review-item");
      await expect(screen).toHaveAttribute("data-item", vetted.externalId);
      // the item as annotators see it, and beside it the key: the right candidate in every step
      await expect(page.getByTestId("annotator-view").locator("[data-slot]")).toHaveCount(vetted.order.length);
      const keySteps = page.getByTestId("answer-key").locator("[data-key-step]");
      await expect(keySteps).toHaveCount(vetted.order.length);
      for (const [step, candidate] of vetted.order.entries())
        await expect(keySteps.nth(step)).toHaveAttribute("data-key-candidate", String.fromCharCode(65 + candidate));
      await expect(page.getByTestId("answer-key")).toContainText(`${vetted.secrets[0]}Fact0`);
      await expect(page.getByTestId("answer-key").getByRole("img").first()).toHaveJSProperty("complete", true);

      const reason = page.getByLabel("Reason for Correctness");
      if (plan.failCorrectness) {
        // a key pressed before the page has hydrated goes nowhere: press again until the reason takes the focus
        await expect(async () => {
          if (!(await reason.evaluate((element) => element === document.activeElement))) await page.keyboard.press("f");
          await expect(reason).toBeFocused({ timeout: 2_000 });
        }).toPass({ timeout: 15_000 });
        await page.keyboard.type(plan.failCorrectness);
        await page.keyboard.press("Enter"); // on to the next axis without a verdict
        await expect(reason).not.toBeFocused();
      } else {
        await page.keyboard.press("p");
      }
      await page.keyboard.press("p");
      await page.keyboard.press("p");
      await expect(page.locator('[data-axis="correctness"]')).toHaveAttribute("data-verdict", plan.failCorrectness ? "fail" : "pass");
      await expect(page.locator('[data-axis="non_triviality"]')).toHaveAttribute("data-verdict", "pass");
      if (n === 0) await shot(page, "2-reviewer-page", testInfo);
      await page.keyboard.press("Enter");
      // the next item at once
      await expect(screen).toHaveAttribute("data-item", other.externalId);
      await expect(page.getByRole("status").filter({ hasText: `Saved your review of ${vetted.externalId}` })).toBeVisible();
      if (n === 0) {
        await expect(page.getByTestId("key-enact-inverse")).toBeVisible();
        await expect(page.getByTestId("annotator-view").locator("[data-slot]")).toHaveCount(other.order.length);
        await shot(page, "3-reviewer-page-inverse", testInfo);
      }
      await page.context().close();
    }

    // stored: 3 reviews x 3 axes, the item excluded by the majority on correctness
    const { rows: verdicts } = await e2eDb().query(
      `SELECT ax.key, v.pass, v.reason FROM "ReviewVerdict" v JOIN "ReviewAxis" ax ON ax.id = v."axisId" JOIN "ReviewAssignment" a ON a.id = v."assignmentId" JOIN "ReviewItem" r ON r.id = a."reviewItemId"
       JOIN "ReviewStudy" s ON s.id = r."reviewStudyId" WHERE s.slug = $1 AND r."externalId" = $2 ORDER BY ax.key, v.pass`,
      [reviewSlug, vetted.externalId],
    );
    expect(verdicts).toHaveLength(9);
    expect(
      verdicts
        .filter((v) => !v.pass)
        .map((v) => v.reason)
        .sort(),
    ).toEqual([plans[1].failCorrectness, plans[0].failCorrectness].sort());
    const { rows: outcome } = await e2eDb().query(
      `SELECT r.outcome, r.split, r.reviews FROM "ReviewItem" r JOIN "ReviewStudy" s ON s.id = r."reviewStudyId" WHERE s.slug = $1 AND r."externalId" = $2`,
      [reviewSlug, vetted.externalId],
    );
    expect(outcome[0]).toEqual({ outcome: "EXCLUDED", split: true, reviews: 3 });

    // --- the researcher's results: votes, the contested queue, the decision --------------------
    await researcher.goto(`/review/${reviewSlug}/results`);
    await expect(researcher.locator('[data-count="excluded"]')).toHaveText("1");
    await expect(researcher.getByTestId("review-items").locator(`[data-item="${vetted.externalId}"]`)).toHaveAttribute("data-outcome", "EXCLUDED");
    await expect(researcher.getByTestId("contested-queue")).toContainText(vetted.externalId);
    await expect(researcher.getByTestId("affected-studies")).toContainText(title);
    await shot(researcher, "4-results", testInfo, true);
    await researcher.getByTestId("contested-queue").getByRole("link", { name: "Settle" }).click();
    await expect(researcher.getByTestId("item-verdicts")).toContainText(plans[0].failCorrectness!);
    await expect(researcher.getByTestId("annotator-view").locator("[data-slot]")).toHaveCount(vetted.order.length);
    await shot(researcher, "5-item-decision", testInfo, true);
    await researcher.getByRole("radio", { name: "Exclude the item" }).click();
    await researcher.getByLabel("Note").fill("Confirmed: step 3 is wrong in the key");
    await researcher.getByRole("button", { name: /^Decide/ }).click();
    await expect(researcher.getByText("decided by Rita Researcher")).toBeVisible();
    const { rows: audit } = await e2eDb().query(
      `SELECT l.action, l.detail FROM "AuditLog" l JOIN "ReviewItem" r ON l.target = 'review-item:' || r.id JOIN "ReviewStudy" s ON s.id = r."reviewStudyId" WHERE s.slug = $1 AND r."externalId" = $2 ORDER BY l.id`,
      [reviewSlug, vetted.externalId],
    );
    expect(audit.map((row) => row.action)).toEqual(["review.verdicts", "review.verdicts", "review.verdicts", "review.outcome", "review.decision"]);
    expect(audit[4].detail).toMatchObject({ decision: "EXCLUDE", note: "Confirmed: step 3 is wrong in the key" });
    await researcher.goto("/review");
    await shot(researcher, "6-review-home", testInfo);
    // the study's item browser flags it
    await researcher.goto(`/research/studies/${study.slug}`);
    await expect(researcher.getByRole("row", { name: new RegExp(vetted.externalId) })).toContainText("failed review");
    await researcher.context().close();

    // --- the item drops out of the study: the annotator never gets it --------------------------
    const annotator = await as(browser, "annotator");
    await annotator.goto(`/s/${study.slug}/work`);
    await expect(annotator.getByTestId("task")).toHaveAttribute("data-kind", other.kind, { timeout: 15_000 });
    const held = await annotator.getByTestId("task").getAttribute("data-assignment");
    const next = await annotator.request.get(`/api/annotate/studies/${study.slug}/next?exclude=${held}`);
    expect((await next.json()).status).not.toBe("item");
    const assigned = await assignmentsOf(study.id, "annotator");
    expect(assigned.map((a) => a.itemId)).toEqual([other.id]);
    await annotator.context().close();
  });

  test("the reviewer's page is for the review study's reviewers only", async ({ browser }) => {
    study = await createEnactStudy({ items: [{ kind: "enact-inverse", steps: 3 }], members: [] });
    reviewSlug = `review-e2e-${Date.now().toString(36)}`;
    const db = e2eDb();
    const { rows } = await db.query(
      `INSERT INTO "ReviewStudy" (id, slug, title, "updatedAt") VALUES ('rs_' || md5(random()::text), $1, 'Access check', now()) RETURNING id`,
      [reviewSlug],
    );
    await db.query(`INSERT INTO "ReviewStudyReviewer" ("reviewStudyId", "userId") SELECT $1, id FROM "User" WHERE email = $2`, [
      rows[0].id,
      e2eUsers.reviewer1.email,
    ]);
    const outsider = await as(browser, "annotator2");
    const response = await outsider.goto(`/review/${reviewSlug}`);
    expect(response?.status()).toBe(403);
    const api = await outsider.request.get(`/api/review/studies/${reviewSlug}/next`);
    expect(api.status()).toBe(403);
    await outsider.context().close();
  });
});
