import { randomBytes } from "node:crypto";
import { test, expect, type Page } from "@playwright/test";
import { createEnactStudy, deleteStudy, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import { AnnotatePage } from "./pages/annotate-page";
import { storageStatePath } from "./users";

/**
 * A study run with recruited participants, as a new participant from the public link:
 * Prolific's fields in the URL, consent, the tutorial, a practice item with its explained answer
 * and the pass mark, the real items with the timer and the shortcut list, and the end with the
 * completion code and the redirect to Prolific once the last events are stored. Also: a link
 * with missing or tampered fields, withdrawal, the researcher's participant table, settings
 * (frozen, new version) and audit log, and the item page on a tablet. Reads the database back.
 */

const shots = process.env.OPSENTRY_SHOTS ?? "test-results/participant";
const CODE = "PROLIFIC-C0DE";
const PROLIFIC_DONE = `https://app.prolific.com/submissions/complete?cc=${CODE}`;
let studies: FixtureStudy[] = [];

const hex24 = () => randomBytes(12).toString("hex");

test.afterEach(async () => {
  const db = e2eDb();
  for (const study of studies) {
    const users = await db.query(`SELECT "userId" FROM "StudyMember" WHERE "studyId" = $1`, [study.id]);
    await deleteStudy(study.id);
    await db.query(`DELETE FROM "User" WHERE id = ANY($1) AND "externalSource" IS NOT NULL`, [users.rows.map((r) => r.userId)]);
  }
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

/** A study as a researcher sets it up for Prolific: public link, consent, tutorial, pass mark, time limit, completion code and redirect. */
async function recruitingStudy(options: { mainItems?: number } = {}) {
  const study = await createEnactStudy({
    items: [
      { kind: "enact-forward", steps: 3, practice: true },
      ...Array.from({ length: options.mainItems ?? 2 }, (_, i) => ({ kind: i % 2 === 0 ? ("enact-inverse" as const) : ("enact-forward" as const), steps: 3 })),
    ],
    completionCode: CODE,
    title: "Ordering household steps (Prolific pilot)",
  });
  studies.push(study);
  const entryToken = randomBytes(18).toString("base64url");
  await e2eDb().query(
    `UPDATE "Study" SET "entryToken" = $2, "consentMarkdown" = $3, "consentVersion" = 1, "tutorialPages" = $4, "practicePassMark" = 1,
       "itemTimeLimitSeconds" = 300, "completionRedirectUrl" = 'https://app.prolific.com/submissions/complete?cc={code}' WHERE id = $1`,
    [
      study.id,
      entryToken,
      "# Taking part\n\nYou will put pictures of household tasks **in order**. We record your answers and how you work (clicks, times).\n\n- It takes about 10 minutes.\n- You can withdraw at any time.",
      JSON.stringify([
        {
          title: "How an item works",
          body: "Each item shows a start and shuffled pictures. Put them into the numbered steps.\n\n1. Look at the start.\n2. Drag (or type the step number).",
        },
        {
          title: "A worked example",
          body: "If the start shows a closed fridge and the pictures show *open*, *take milk*, *close*, the order is **open → take milk → close**.",
        },
      ]),
    ],
  );
  return { ...study, entryToken };
}

async function itemOrder(assignmentId: string): Promise<number[]> {
  const result = await e2eDb().query(`SELECT i.key FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId" WHERE a.id = $1`, [assignmentId]);
  return (result.rows[0].key as { order: number[] }).order;
}

async function participantOf(studyId: string, pid: string) {
  const result = await e2eDb().query(
    `SELECT u.id, u.role, u."passwordHash", u."externalSource", m.status, m."consentVersion", m."consentedAt", m."tutorialDoneAt", m."entrySession"
     FROM "User" u JOIN "StudyMember" m ON m."userId" = u.id WHERE m."studyId" = $1 AND u."externalId" = $2`,
    [studyId, pid],
  );
  return result.rows;
}

/** The whole way in: the link, consent, the tutorial. Ends on the work page. */
async function joinThroughTutorial(page: Page, study: { slug: string; entryToken: string }, query: string, shoot = false) {
  await page.goto(`/join/${study.entryToken}?${query}`);
  if (shoot) await page.screenshot({ path: `${shots}/join.png` });
  await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/consent$`), { timeout: 20_000 });
  await expect(page.getByTestId("consent-text")).toContainText("You can withdraw at any time");
  const agree = page.getByRole("button", { name: "I agree: continue" });
  await expect(agree).toBeDisabled();
  if (shoot) await page.screenshot({ path: `${shots}/consent.png` });
  await page.getByLabel("I have read the text above and agree to take part.").check();
  await agree.click();
  await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/tutorial$`));
  await expect(page.getByTestId("tutorial-position")).toHaveText("Tutorial · page 1 of 3");
  await expect(page.getByRole("heading", { name: "Instructions" })).toBeVisible();
  await expect(page.getByTestId("tutorial")).toHaveAttribute("data-keys-ready", "true"); // hydrated: the arrow keys work
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("heading", { name: "How an item works" })).toBeVisible();
  await page.getByRole("button", { name: "Next →" }).click();
  await expect(page.getByRole("heading", { name: "A worked example" })).toBeVisible();
  if (shoot) await page.screenshot({ path: `${shots}/tutorial.png` });
  await page.getByRole("button", { name: "Start the 1 practice item" }).click();
  await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/work$`));
}

test.describe("a recruited participant", () => {
  test("joins from the Prolific link, consents, reads the tutorial, passes the practice, does the items and is sent back to Prolific with the code once everything is saved", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const study = await recruitingStudy();
    const pid = hex24();
    const studyId = hex24();
    const sessionId = hex24();
    const context = await browser.newContext();
    const page = await context.newPage();
    let prolificUrl: string | null = null;
    await context.route("https://app.prolific.com/**", async (route) => {
      prolificUrl = route.request().url();
      await route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Prolific (stub)</h1>" });
    });

    await joinThroughTutorial(page, study, `PROLIFIC_PID=${pid}&STUDY_ID=${studyId}&SESSION_ID=${sessionId}`, true);
    const [joined] = await participantOf(study.id, pid);
    expect(joined).toMatchObject({ role: "ANNOTATOR", passwordHash: null, externalSource: "prolific", status: "ACTIVE", consentVersion: 1 });
    expect(joined.consentedAt).not.toBeNull();
    expect(joined.tutorialDoneAt).not.toBeNull();
    expect(joined.entrySession).toMatchObject({ STUDY_ID: studyId, SESSION_ID: sessionId });

    const annotate = new AnnotatePage(page);
    await annotate.waitForItem();
    await expect(annotate.progress).toHaveText("Practice 1 of 1");
    await expect(page.getByTestId("item-timer")).toContainText(/[0-5]:\d\d left/);
    // the shortcuts of the kind are listed on the page
    await page.getByRole("button", { name: "⌨ Keys" }).click();
    await expect(page.getByTestId("shortcuts")).toContainText("put the focused candidate into that step");
    await page.screenshot({ path: `${shots}/practice-item.png` });
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("shortcuts")).toBeHidden();
    const practiceOrder = await itemOrder(await annotate.assignmentId());
    await annotate.fillOrder(practiceOrder, "keyboard");
    await annotate.setConfidence(4);
    await annotate.submit();
    await expect(annotate.feedback).toHaveAttribute("data-correct", "true");
    await expect(page.getByTestId("practice-standing")).toHaveAttribute("data-passed", "true");
    await expect(page.getByTestId("practice-standing")).toContainText("Practice: 1 of 1 right");
    await page.screenshot({ path: `${shots}/practice-feedback.png` });
    await annotate.continueAfterFeedback();

    for (let n = 1; n <= 2; n++) {
      await annotate.waitForItem();
      await expect(annotate.progress).toHaveText(`Item ${n} of 2`);
      await expect(page.getByRole("progressbar")).toBeVisible();
      const order = await itemOrder(await annotate.assignmentId());
      await annotate.fillOrder(order, "keyboard");
      await annotate.setConfidence(5);
      if (n === 2) await page.screenshot({ path: `${shots}/main-item.png` });
      await annotate.submit();
    }

    // the end: the code, then the redirect once the outbox is empty
    await expect(page.getByTestId("completion-code")).toHaveText(CODE, { timeout: 20_000 });
    await expect(page.getByTestId("completion-sync")).toHaveAttribute("data-state", "saved", { timeout: 20_000 });
    await page.screenshot({ path: `${shots}/done.png` });
    await expect.poll(() => prolificUrl, { timeout: 15_000 }).toBe(PROLIFIC_DONE);
    await expect(page).toHaveURL(PROLIFIC_DONE);

    // everything reached the server before the redirect: three responses, every trajectory gapless and ending in its submission
    const stored = await e2eDb().query(
      `SELECT a.id, a.purpose, a.status, (SELECT count(*) FROM "Response" r WHERE r."assignmentId" = a.id)::int AS responses,
              (SELECT array_agg(e.seq ORDER BY e.seq) FROM "Event" e WHERE e."assignmentId" = a.id) AS seqs,
              (SELECT e.type FROM "Event" e WHERE e."assignmentId" = a.id ORDER BY e.seq DESC LIMIT 1) AS last
       FROM "Assignment" a WHERE a."studyId" = $1 AND a."userId" = $2 ORDER BY a.position`,
      [study.id, joined.id],
    );
    expect(stored.rows.map((r) => r.purpose)).toEqual(["PRACTICE", "MAIN", "MAIN"]);
    for (const row of stored.rows) {
      expect(row).toMatchObject({ status: "SUBMITTED", responses: 1, last: "submitted" });
      expect(row.seqs).toEqual(row.seqs.map((_: number, i: number) => i));
    }
    const [finished] = await participantOf(study.id, pid);
    expect(finished.status).toBe("COMPLETE");

    // the same link again (another device): the same account, no second one; the study page says finished
    const again = await browser.newContext();
    const second = await again.newPage();
    const joinPage = await second.goto(`/join/${study.entryToken}?PROLIFIC_PID=${pid}&STUDY_ID=${studyId}&SESSION_ID=${sessionId}`);
    // the page greets from the server and then signs in and moves on by itself: read the greeting
    // in the page as served (on a loaded machine it can be gone before a locator looks)
    expect(await joinPage!.text()).toContain("Welcome back");
    await expect(second).toHaveURL(new RegExp(`/s/${study.slug}$`), { timeout: 20_000 });
    await expect(second.getByRole("link", { name: "Finished: see your code" })).toBeVisible();
    expect((await e2eDb().query(`SELECT count(*)::int AS n FROM "User" WHERE "externalId" = $1`, [pid])).rows[0].n).toBe(1);
    await again.close();

    // the researcher's table: complete, with the Prolific id and session; the settings are frozen
    const researcher = await browser.newContext({ storageState: storageStatePath("researcher") });
    const staff = await researcher.newPage();
    await staff.goto(`/research/studies/${study.slug}/participants`);
    const row = staff.locator(`[data-participant="${pid}"]`);
    await expect(row).toContainText("complete");
    await expect(row).toContainText(`prolific: ${pid}`);
    await expect(staff.getByTestId("count-COMPLETE")).toHaveText("1");
    await staff.screenshot({ path: `${shots}/research-participants.png`, fullPage: true });
    await staff.goto(`/research/studies/${study.slug}/settings`);
    await expect(staff.getByTestId("frozen-note")).toBeVisible();
    await expect(staff.getByTestId("settings-form").locator('input[name="title"]')).toBeDisabled();
    await expect(staff.getByRole("button", { name: "Save settings" })).toBeDisabled();
    await staff.screenshot({ path: `${shots}/research-settings-frozen.png`, fullPage: true });
    await staff.getByRole("button", { name: "Create a new version" }).first().click();
    await expect(staff).toHaveURL(/-v2\/settings$/, { timeout: 30_000 });
    await expect(staff.getByTestId("frozen-note")).toHaveCount(0);
    const copy = await e2eDb().query(
      `SELECT id, status, version, "previousVersionId", (SELECT count(*)::int FROM "Item" i WHERE i."studyId" = s.id) AS items FROM "Study" s WHERE "previousVersionId" = $1`,
      [study.id],
    );
    expect(copy.rows[0]).toMatchObject({ status: "DRAFT", version: 2, items: 3 });
    studies.push({ ...study, id: copy.rows[0].id });
    await staff.goto(`/research/studies/${study.slug}/audit`);
    await expect(staff.getByTestId("audit-entries")).toContainText("study.version");
    await researcher.close();
    await context.close();
  });

  test("ticks the consent box, and later the withdrawal box, before the page's scripts have run (a slow phone) and can still go on", async ({ browser }) => {
    test.setTimeout(120_000);
    const study = await recruitingStudy();
    const context = await browser.newContext();
    const page = await context.newPage();
    // on the page named, its scripts wait until the box is ticked
    let heldOn: string | null = null;
    let release: () => void = () => undefined;
    let ticked = Promise.resolve();
    const holdScriptsOn = (path: string) => {
      heldOn = path;
      ticked = new Promise<void>((resolve) => (release = resolve));
    };
    let held = false;
    await context.route("**/_next/static/chunks/**", async (route) => {
      if (heldOn && route.request().resourceType() === "script" && new URL(page.url()).pathname.endsWith(heldOn)) {
        held = true;
        await ticked;
      }
      await route.continue();
    });
    holdScriptsOn("/consent");
    await page.goto(`/join/${study.entryToken}?PROLIFIC_PID=${hex24()}&STUDY_ID=${hex24()}&SESSION_ID=${hex24()}`, { waitUntil: "commit" });
    await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/consent$`), { timeout: 20_000 });
    await expect(page.getByTestId("consent-text")).toContainText("You can withdraw at any time");
    await page.getByLabel("I have read the text above and agree to take part.").check();
    expect(held).toBe(true);
    release();
    const agree = page.getByRole("button", { name: "I agree: continue" });
    await expect(agree).toBeEnabled();
    await agree.click();
    await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/tutorial$`));

    held = false;
    holdScriptsOn("/withdraw");
    await page.goto(`/s/${study.slug}/withdraw`, { waitUntil: "commit" });
    await page.getByLabel(/Yes, I want to withdraw/).check();
    expect(held).toBe(true);
    release();
    const withdraw = page.getByRole("button", { name: "Withdraw and delete my answers" });
    await expect(withdraw).toBeEnabled();
    await withdraw.click();
    await expect(page).toHaveURL(/\/withdrawn\?study=/, { timeout: 20_000 });
    await context.close();
  });

  test("a link with missing or tampered fields says what is wrong and creates nothing", async ({ browser }) => {
    const study = await recruitingStudy();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`/join/${study.entryToken}?STUDY_ID=${hex24()}&SESSION_ID=${hex24()}`);
    await expect(page.getByRole("heading", { name: "This study link is not complete" })).toBeVisible();
    await expect(page.getByTestId("join-problem")).toContainText("PROLIFIC_PID");
    await expect(page.getByTestId("join-problem")).toContainText("no participant id");
    await page.screenshot({ path: `${shots}/join-missing.png` });
    await page.goto(`/join/${study.entryToken}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}`);
    await expect(page.getByTestId("join-problem")).toContainText("still holds the placeholder");
    await page.goto(`/join/not-a-real-token-0000?PROLIFIC_PID=${hex24()}`);
    await expect(page.getByRole("heading", { name: "This study link does not work" })).toBeVisible();
    expect((await e2eDb().query(`SELECT count(*)::int AS n FROM "StudyMember" WHERE "studyId" = $1`, [study.id])).rows[0].n).toBe(0);
    // signing in with a tampered query directly: refused with the field named (401 from next-auth), nothing written
    const csrf = (await (await context.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const refused = await context.request.post("/api/auth/callback/study-link", {
      form: { csrfToken: csrf.csrfToken, entryToken: study.entryToken, query: "PROLIFIC_PID=zz", json: "true" },
    });
    expect(refused.status()).toBe(401);
    const reason = new URL(((await refused.json()) as { url: string }).url).searchParams.get("error");
    expect(reason).toContain('PROLIFIC_PID: "zz" is not a Prolific id');
    expect((await e2eDb().query(`SELECT count(*)::int AS n FROM "StudyMember" WHERE "studyId" = $1`, [study.id])).rows[0].n).toBe(0);
    await context.close();
  });

  test("a link sign-in over the study's rate limit answers 429 with Retry-After and its reason, the page says so, and nothing is created", async ({
    browser,
  }) => {
    const study = await recruitingStudy();
    // the study's window of new participants is full (LINK_THROTTLE.maxNewPerStudy, lib/studies/entry.ts)
    const throttleKey = `link-study:${study.id}`;
    await e2eDb().query(`INSERT INTO "LoginThrottle" (key, failures, "windowStart", "updatedAt") VALUES ($1, 200, now(), now())`, [throttleKey]);
    const context = await browser.newContext();
    const query = `PROLIFIC_PID=${hex24()}&STUDY_ID=${hex24()}&SESSION_ID=${hex24()}`;
    const csrf = (await (await context.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const refused = await context.request.post("/api/auth/callback/study-link", {
      form: { csrfToken: csrf.csrfToken, entryToken: study.entryToken, query, json: "true" },
    });
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
    const body = (await refused.json()) as { url: string; reason: string };
    expect(body.reason).toBe("rate-limited");
    expect(new URL(body.url).searchParams.get("error")).toContain("Too many new participants");
    const page = await context.newPage();
    await page.goto(`/join/${study.entryToken}?${query}`);
    await expect(page.getByTestId("join-error")).toContainText("Too many new participants");
    expect((await e2eDb().query(`SELECT count(*)::int AS n FROM "StudyMember" WHERE "studyId" = $1`, [study.id])).rows[0].n).toBe(0);
    await e2eDb().query(`DELETE FROM "LoginThrottle" WHERE key = $1`, [throttleKey]);
    await context.close();
  });

  test("withdraws after confirming: responses and events deleted, the audit log says so, signed out, and the link keeps them out", async ({ browser }) => {
    test.setTimeout(120_000);
    const study = await recruitingStudy();
    const pid = hex24();
    const prolificQuery = `PROLIFIC_PID=${pid}&STUDY_ID=${hex24()}&SESSION_ID=${hex24()}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await joinThroughTutorial(page, study, prolificQuery);
    const annotate = new AnnotatePage(page);
    await annotate.waitForItem();
    await annotate.fillOrder(await itemOrder(await annotate.assignmentId()), "keyboard");
    await annotate.setConfidence(3);
    await annotate.submit();
    await annotate.continueAfterFeedback();
    await annotate.waitForItem();
    await annotate.waitUntilSynced();
    const [joined] = await participantOf(study.id, pid);
    const before = await e2eDb().query(
      `SELECT (SELECT count(*)::int FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."userId" = $1) AS responses, (SELECT count(*)::int FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" WHERE a."userId" = $1) AS events`,
      [joined.id],
    );
    expect(before.rows[0].responses).toBe(1);
    expect(before.rows[0].events).toBeGreaterThan(2);

    await page.goto(`/s/${study.slug}`);
    await page.getByTestId("withdraw-link").click();
    const button = page.getByRole("button", { name: "Withdraw and delete my answers" });
    await expect(button).toBeDisabled();
    await page.screenshot({ path: `${shots}/withdraw.png` });
    await page.getByLabel(/Yes, I want to withdraw/).check();
    await button.click();
    await expect(page).toHaveURL(/\/withdrawn\?study=/, { timeout: 20_000 });
    await expect(page.getByTestId("withdrawn")).toBeVisible();
    // signed out, the page still says whom to write to about the study
    await expect(page.getByTestId("study-contact").getByTestId("team-contact")).toBeVisible();

    const after = await e2eDb().query(
      `SELECT (SELECT count(*)::int FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."userId" = $1) AS responses, (SELECT count(*)::int FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" WHERE a."userId" = $1) AS events`,
      [joined.id],
    );
    expect(after.rows[0]).toEqual({ responses: 0, events: 0 });
    const audit = await e2eDb().query(`SELECT "actorId", detail FROM "AuditLog" WHERE action = 'participant.withdraw' AND target = $1`, [`study:${study.id}`]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ actorId: joined.id, detail: { responses: 1 } });
    // signed out: the study page sends to sign in; the link refuses them
    await page.goto(`/s/${study.slug}`);
    await expect(page).toHaveURL(/\/signin/);
    await page.goto(`/join/${study.entryToken}?${prolificQuery}`);
    await expect(page.getByTestId("join-problem")).toContainText("You withdrew");
    await context.close();
  });

  test("on a tablet (1024x768, touch) the item page fits: the task, the bar with timer and submit are on screen", async ({ browser }) => {
    test.setTimeout(120_000);
    const study = await recruitingStudy();
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: false });
    const page = await context.newPage();
    await joinThroughTutorial(page, study, `pid=tablet-${hex24()}`);
    const annotate = new AnnotatePage(page);
    await annotate.waitForItem();
    await expect(page.getByTestId("item-timer")).toBeInViewport();
    await expect(annotate.submitButton).toBeInViewport();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await annotate.fillOrder(await itemOrder(await annotate.assignmentId()), "keyboard");
    await page.screenshot({ path: `${shots}/tablet-item.png` });
    await context.close();
  });
});

test.describe("the researcher running the study", () => {
  test("edits the settings (errors at the field), pauses and reopens, invites a named annotator, re-includes an excluded participant, exports pseudonymised ids, and reads it all in the audit log", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const study = await recruitingStudy();
    const db = e2eDb();
    const researcher = await browser.newContext({ storageState: storageStatePath("researcher") });
    const staff = await researcher.newPage();

    // settings: a cross-field error shows at its field and saves nothing; the fix saves
    await staff.goto(`/research/studies/${study.slug}/settings`);
    await expect(staff.getByTestId("lifecycle")).toContainText("Participants can join and work.");
    await staff.getByLabel("Gold rate (%)").fill("20");
    await staff.getByLabel("Exclude after failing").fill("3");
    await staff.getByLabel("... among the first").fill("2");
    await staff.getByRole("button", { name: "Save settings" }).click();
    await expect(staff.getByRole("alert").filter({ hasText: "Not saved" })).toBeVisible();
    await expect(staff.getByText("the window (2) is smaller than the failures that exclude (3)")).toBeVisible();
    await staff.screenshot({ path: `${shots}/research-settings-error.png`, fullPage: true });
    expect((await db.query(`SELECT "goldFailLimit" FROM "Study" WHERE id = $1`, [study.id])).rows[0].goldFailLimit).toBeNull();
    await staff.getByLabel("... among the first").fill("5");
    await staff.getByRole("button", { name: "Save settings" }).click();
    await expect(staff.getByText("Saved.", { exact: true })).toBeVisible();
    expect((await db.query(`SELECT "goldRate", "goldFailLimit", "goldFailWindow" FROM "Study" WHERE id = $1`, [study.id])).rows[0]).toEqual({
      goldRate: 0.2,
      goldFailLimit: 3,
      goldFailWindow: 5,
    });

    // a participant at work; the study paused: they are told, and go on once it reopens
    const pid = `lab-${hex24().slice(0, 8)}`;
    const participant = await browser.newContext();
    const work = await participant.newPage();
    await joinThroughTutorial(work, study, `pid=${pid}`);
    await new AnnotatePage(work).waitForItem();
    await staff.getByRole("button", { name: "Pause", exact: true }).click();
    await expect(staff.getByTestId("lifecycle")).toContainText("Nobody gets new work");
    await work.reload();
    await expect(work.getByRole("heading", { name: "The study is paused" })).toBeVisible();
    await work.screenshot({ path: `${shots}/work-paused.png` });
    await staff.getByRole("button", { name: "Open", exact: true }).click();
    await expect(staff.getByTestId("lifecycle")).toContainText("Participants can join and work.");
    await work.reload();
    await new AnnotatePage(work).waitForItem();

    // an invite for a named annotator: the link signs them in, straight to the consent form
    await staff.goto(`/research/studies/${study.slug}/participants`);
    await staff.getByLabel("Name").fill("Nadia Named");
    await staff.getByRole("button", { name: "Create invite link" }).click();
    const inviteLink = await staff.getByTestId("new-invite-link").textContent();
    expect(inviteLink).toMatch(/\/join\/invite\/[A-Za-z0-9_-]{20,}$/);
    await expect(staff.getByTestId("invites")).toContainText("Nadia Named");
    const invited = await browser.newContext();
    const invitedPage = await invited.newPage();
    await invitedPage.goto(inviteLink!);
    await expect(invitedPage).toHaveURL(new RegExp(`/s/${study.slug}/consent$`), { timeout: 20_000 });
    await expect(invitedPage.getByText("Nadia Named")).toBeVisible();
    await invited.close();

    // the participant is excluded (by the gold rule, say): their page says so; the researcher re-includes them
    const [member] = (await db.query(`SELECT u.id FROM "User" u WHERE u."externalId" = $1`, [pid])).rows;
    await db.query(
      `UPDATE "StudyMember" SET status = 'EXCLUDED', "statusReason" = 'failed 3 of 5 gold items', "statusAt" = now() WHERE "studyId" = $1 AND "userId" = $2`,
      [study.id, member.id],
    );
    await work.goto(`/s/${study.slug}/work`);
    await expect(work).toHaveURL(new RegExp(`/s/${study.slug}/ended$`));
    await expect(work.getByTestId("ended-title")).toHaveAttribute("data-status", "EXCLUDED");
    await work.screenshot({ path: `${shots}/ended-excluded.png` });
    await staff.reload();
    await staff.getByRole("button", { name: /^excluded/ }).click();
    const row = staff.locator(`[data-participant="${pid}"]`);
    await expect(row).toContainText("failed 3 of 5 gold items");
    await row.getByRole("button", { name: "Re-include" }).click();
    await row.getByLabel("Reason").fill("the gold key of item 7 was wrong");
    await staff.screenshot({ path: `${shots}/research-reinclude.png`, fullPage: true });
    await row.getByRole("button", { name: "Re-include" }).click();
    await expect(staff.getByRole("status").filter({ hasText: "is active again" })).toBeVisible();
    expect((await db.query(`SELECT status, "statusReason" FROM "StudyMember" WHERE "studyId" = $1 AND "userId" = $2`, [study.id, member.id])).rows[0]).toEqual({
      status: "ACTIVE",
      statusReason: "the gold key of item 7 was wrong",
    });
    await work.goto(`/s/${study.slug}/work`);
    await new AnnotatePage(work).waitForItem();

    // dashboards: the toggle for excluded participants
    await staff.goto(`/research/studies/${study.slug}/dashboard`);
    await expect(staff.getByLabel("Excluded participants")).toBeVisible();
    await staff.screenshot({ path: `${shots}/research-dashboard.png` });

    // exports: external ids pseudonymised on request
    await staff.goto(`/research/studies/${study.slug}/exports`);
    await staff.getByLabel(/Pseudonymise external ids/).check();
    await staff.getByRole("button", { name: "Apply" }).click();
    await expect(staff).toHaveURL(/externalIds=pseudonymised/);
    const csvHref = await staff.getByTestId("exports").locator("tr", { hasText: "Annotators" }).getByRole("link", { name: "CSV" }).getAttribute("href");
    expect(csvHref).toContain("externalIds=pseudonymised");
    await staff.screenshot({ path: `${shots}/research-exports.png` });
    const csv = await (await researcher.request.get(csvHref!)).text();
    expect(csv).toContain("external_id");
    expect(csv).not.toContain(pid);
    const salt = (await db.query(`SELECT "pseudonymSalt" FROM "Study" WHERE id = $1`, [study.id])).rows[0].pseudonymSalt as string;
    const { createHash } = await import("node:crypto");
    expect(csv).toContain(createHash("sha256").update(`${salt}${pid}`).digest("hex").slice(0, 16));

    // the audit log has all of it
    await staff.goto(`/research/studies/${study.slug}/audit`);
    const entries = staff.getByTestId("audit-entries");
    for (const action of ["study.settings", "study.status", "study.invite.create", "participant.reinclude", "study.export"])
      await expect(entries).toContainText(action);
    await staff.screenshot({ path: `${shots}/research-audit.png`, fullPage: true });
    await participant.close();
    await researcher.close();
  });
});
