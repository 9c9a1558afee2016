import { randomBytes } from "node:crypto";
import { test, expect, type Browser, type Page } from "@playwright/test";
import { createEnactStudy, deleteStudy, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import { AnnotatePage } from "./pages/annotate-page";
import { e2eUsers, storageStatePath } from "./users";
import { CHECKLIST } from "../lib/report/checklist";
import { startProlificStandIn, type ProlificStandIn } from "../tests/stand-ins/prolific-server";

/**
 * Recruitment through Prolific from the study's Participants tab (docs/prolific.md), against the
 * stand-in of Prolific's API (tests/stand-ins/prolific-server.ts) this spec serves on
 * E2E_PORT + 1001, where playwright.config.ts points the app (PROLIFIC_API_URL). The study's
 * owner stores a token, makes the draft from the study (places from the planner) and publishes it;
 * three participants come through the link (one returns on Prolific, whose signed hook frees the
 * place; one fails the attention check); the owner approves, rejects and pays a bonus by the
 * rules, each previewed and confirmed once; then the study's report fills every checklist entry
 * or says why not, with Prolific's pay and the dashboard's figures. The card and the report are
 * also read at a phone's width.
 */

const shots = process.env.OPSENTRY_SHOTS ?? "test-results/prolific";
const CODE = "PRLF-DONE";
const REJECT_MESSAGE =
  "Your submission failed the study's attention check: the answer to the check item was wrong, as the instructions said it would be checked before you began.";
let standIn: ProlificStandIn;
let study: (FixtureStudy & { entryToken: string }) | null = null;

// each attempt starts clean (a retry runs after a failed attempt left its study, token and stand-in behind)
test.beforeEach(async () => {
  standIn = await startProlificStandIn(`e2e-${randomBytes(16).toString("hex")}`, Number(process.env.E2E_PORT ?? 3310) + 1001);
  await e2eDb().query(`DELETE FROM "ProlificToken" WHERE "userId" = (SELECT id FROM "User" WHERE email = $1)`, [e2eUsers.researcher.email]);
});

test.afterEach(async () => {
  const db = e2eDb();
  if (study) {
    const users = await db.query(`SELECT "userId" FROM "StudyMember" WHERE "studyId" = $1`, [study.id]);
    await deleteStudy(study.id);
    await db.query(`DELETE FROM "User" WHERE id = ANY($1) AND "externalSource" IS NOT NULL`, [users.rows.map((r) => r.userId)]);
    study = null;
  }
  await db.query(`DELETE FROM "ProlificToken" WHERE "userId" = (SELECT id FROM "User" WHERE email = $1)`, [e2eUsers.researcher.email]);
  await standIn.close();
});

test.afterAll(async () => {
  await closeE2eDb();
});

/**
 * A study of the researcher's: 3 ordinary items and a gold one, each answered by 3 people, excluded
 * at the first failed gold item. The gold item is due at a place in each person's first block of
 * 1 / goldRate items drawn from their user id, and only while ordinary work is left
 * (lib/assignment/index.ts, rule 6): at a rate above 1/3 that place is among the first three,
 * so everyone meets it before the 3 ordinary items run out.
 */
async function prolificStudy() {
  const created = await createEnactStudy({
    items: [0, 1, 2, 3].map(() => ({ kind: "enact-forward" as const, steps: 3 })),
    overlap: 3,
    completionCode: CODE,
    title: "Ordering household steps (Prolific e2e)",
  });
  const entryToken = randomBytes(18).toString("base64url");
  const db = e2eDb();
  await db.query(
    `UPDATE "Study" SET "entryToken" = $2, "goldRate" = 0.34, "goldFailLimit" = 1, endings = $3,
       "createdById" = (SELECT id FROM "User" WHERE email = $4) WHERE id = $1`,
    [created.id, entryToken, JSON.stringify({ excluded: { code: "PRLF-EXCL", redirectUrl: null } }), e2eUsers.researcher.email],
  );
  await db.query(`UPDATE "Item" SET gold = true WHERE id = $1`, [created.items[3].id]);
  return { ...created, entryToken };
}

async function itemOf(assignmentId: string): Promise<{ order: number[]; gold: boolean }> {
  const result = await e2eDb().query(`SELECT i.key, i.gold FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId" WHERE a.id = $1`, [assignmentId]);
  return { order: (result.rows[0].key as { order: number[] }).order, gold: result.rows[0].gold };
}

/** A participant from Prolific: the link with their ids, then items until the end (`stopAfter`: leaves after that many). */
async function participate(
  browser: Browser,
  pid: string,
  prolificStudyId: string,
  sessionId: string,
  options: { failGold?: boolean; stopAfter?: number } = {},
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/join/${study!.entryToken}?PROLIFIC_PID=${pid}&STUDY_ID=${prolificStudyId}&SESSION_ID=${sessionId}`);
  await expect(page).toHaveURL(new RegExp(`/s/${study!.slug}`), { timeout: 20_000 });
  const annotate = new AnnotatePage(page);
  await annotate.open(study!.slug);
  for (let n = 0; n < 8; n++) {
    if (options.stopAfter !== undefined && n >= options.stopAfter) break;
    const item = await itemOf(await annotate.assignmentId());
    await annotate.fillOrder(item.gold && options.failGold ? [...item.order].reverse() : item.order, "keyboard");
    await annotate.setConfidence(4);
    await annotate.submit();
    const next = await ended(page);
    if (next !== "item") break;
  }
  await context.close();
}

/** What the work page shows after a submission: the next item, or an ending. */
async function ended(page: Page): Promise<"item" | "done" | "ended"> {
  let state: "item" | "done" | "ended" | null = null;
  await expect
    .poll(
      async () => {
        if (await page.getByTestId("completion-code").isVisible()) state = "done";
        else if (/\/ended$/.test(page.url())) state = "ended";
        else if (await page.getByTestId("task").locator("[data-slot]").first().isVisible()) state = "item";
        return state;
      },
      { timeout: 20_000 },
    )
    .not.toBeNull();
  return state!;
}

/** The report's Markdown tables as entries by number: `| # | Entry | Value | Source |`, cells split at unescaped bars and unescaped. */
function markdownEntries(markdown: string): Map<string, { name: string; value: string; source: string }> {
  const entries = new Map<string, { name: string; value: string; source: string }>();
  for (const line of markdown.split("\n")) {
    if (!/^\| \d/.test(line)) continue;
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim().replace(/\\(.)/g, "$1"));
    expect(cells, line).toHaveLength(4);
    entries.set(cells[0], { name: cells[1], value: cells[2], source: cells[3] });
  }
  return entries;
}

function numbersOf(text: string, pattern: RegExp): number[] {
  const match = text.match(pattern);
  expect(match, `${pattern} in "${text}"`).not.toBeNull();
  return match!.slice(1).map(Number);
}

/**
 * The study's report after the batch actions: every checklist entry with its own number and name,
 * filled (a value and its source) or saying why not; the pay as sent to and paid on Prolific; the
 * sample, completion and exclusion figures as the dashboard and the Participants tab print them.
 */
async function readReport(page: Page, slug: string, prolific: { reward: number; minutes: number; paid: number }) {
  const counts = Object.fromEntries(
    await Promise.all(
      ["ALL", "COMPLETE", "EXCLUDED", "RETURNED", "TIMED_OUT", "ACTIVE"].map(async (s) => [s, Number(await page.getByTestId(`count-${s}`).innerText())]),
    ),
  ) as Record<string, number>;

  const reply = await page.request.get(`/api/studies/${slug}/report?format=md`);
  expect(reply.status()).toBe(200);
  const entries = markdownEntries(await reply.text());
  expect([...entries.keys()]).toEqual(CHECKLIST.map((entry) => entry.number));
  for (const { number, name } of CHECKLIST) {
    const entry = entries.get(number)!;
    expect(entry.name, number).toBe(name);
    expect(entry.source, number).not.toBe("");
    if (entry.value.startsWith("not reported")) expect(entry.value, number).toMatch(/^not reported: \S.{10,}/);
    else expect(entry.value.trim(), number).not.toBe("");
  }
  const value = (number: string) => entries.get(number)!.value;

  // pay: the reward and time sent to Prolific, the bonus rule and what it paid
  const money = (minor: number) => (minor / 100).toFixed(2);
  expect(value("2.7.1")).toContain(`${money(prolific.reward)} per person for an estimated ${prolific.minutes} min`);
  expect(value("2.7.2")).toBe("Yes: 0.10 per correct answer");
  expect(value("2.7.2.1")).toBe(`${money(prolific.paid)} in total`);
  for (const number of ["2.7", "2.7.1", "2.7.2", "2.7.2.1", "2.7.3"]) expect(entries.get(number)!.source, number).toContain("Prolific records");

  // the dashboard's figures for the same study: the JSON the page is made of, and what the page prints of it
  const dashboard = await (await page.request.get(`/api/studies/${slug}/dashboard`)).json();
  const { progress, choices, annotators } = dashboard as {
    progress: { items: number; gold: number; overlap: number; done: number; expected: number; perAnnotator: Array<{ mainAssigned: number }> };
    choices: { excludedParticipants: number };
    annotators: unknown[];
  };
  await page.goto(`/research/studies/${slug}/dashboard`);
  await expect(page.getByTestId("progress-responses")).toHaveText(`${progress.done} of ${progress.expected}`);
  await expect(page.locator("main")).toContainText(`answers of the ${choices.excludedParticipants} excluded participant`);
  await page.screenshot({ path: `${shots}/dashboard.png`, fullPage: true });

  const [answered, excluded, inFigures] = numbersOf(
    value("1.1"),
    /^(\d+) people answered \((\d+) of them excluded by the quality rules, (\d+) in the figures\)/,
  );
  expect(answered).toBe(progress.perAnnotator.length);
  expect(excluded).toBe(choices.excludedParticipants);
  expect(inFigures).toBe(annotators.length);
  const [, studyItems] = numbersOf(value("1.2"), /^(\d+) of the study's (\d+) items answered by people/);
  expect(studyItems).toBe(progress.items);
  const [, gold] = numbersOf(value("0.8"), /besides (\d+) practice and (\d+) gold/);
  expect(gold).toBe(progress.gold);
  const [perItem, , , items, k] = numbersOf(value("1.3"), /^mean ([\d.]+) \(min (\d+), max (\d+); (\d+) values?\) answers per item; target k = (\d+)$/);
  expect(items).toBe(progress.items);
  expect(k).toBe(progress.overlap);
  // the report's means have one decimal
  expect(Math.abs(perItem - progress.done / items)).toBeLessThanOrEqual(0.05);
  const [perPerson, , , people] = numbersOf(value("1.4"), /^mean ([\d.]+) \(min (\d+), max (\d+); (\d+) values?\) items per person/);
  expect(people).toBe(answered);
  expect(Math.abs(perPerson - progress.done / people)).toBeLessThanOrEqual(0.05);

  // the instrument's length: the one who finished was given every item a person can get, as the dashboard's annotators table counts them (gold included)
  const [most] = numbersOf(value("3.1"), /^(\d+) items per person at most/);
  expect(Math.max(...progress.perAnnotator.map((a) => a.mainAssigned))).toBe(most);

  // completion and exclusion: the Participants tab's counts, the dashboard's excluded participants
  const [, finished, started, excludedNow, returned, timedOut, active] = numbersOf(
    value("5.1.5"),
    /^([\d.]+)% \((\d+) of (\d+)\) of people who started finished; (\d+) excluded, (\d+) returned, (\d+) timed out, (\d+) active$/,
  );
  expect({ finished, started, excludedNow, returned, timedOut, active }).toEqual({
    finished: counts.COMPLETE,
    started: counts.ALL,
    excludedNow: counts.EXCLUDED,
    returned: counts.RETURNED,
    timedOut: counts.TIMED_OUT,
    active: counts.ACTIVE,
  });
  expect(excludedNow).toBe(choices.excludedParticipants);
  expect({ finished, excludedNow, returned }).toEqual({ finished: 1, excludedNow: 1, returned: 1 });
  const [excludedShare, excludedOf, startedOf] = numbersOf(value("3.2.2"), /^([\d.]+)% \((\d+) of (\d+)\) of people who started excluded/);
  expect({ excludedOf, startedOf }).toEqual({ excludedOf: choices.excludedParticipants, startedOf: counts.ALL });
  expect(excludedShare).toBeCloseTo((100 * excludedOf) / startedOf, 1);

  // the Report tab shows the same entries, and fits a phone
  await page.getByRole("navigation", { name: "Study" }).getByRole("link", { name: "Report" }).click();
  await expect(page).toHaveURL(new RegExp(`/research/studies/${slug}/report$`));
  const rows = page.locator("tr[data-entry]");
  await expect(rows).toHaveCount(CHECKLIST.length);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => [tr.children[0].textContent, tr.querySelector("[data-entry-name]")?.textContent]))).toEqual(
    CHECKLIST.map((entry) => [entry.number, entry.name]),
  );
  await expect(page.locator('tr[data-entry="2.7.2.1"]')).toContainText(`${money(prolific.paid)} in total`);
  await expect(page.locator('tr[data-entry="5.1.5"]')).toContainText(value("5.1.5"));
  await page.screenshot({ path: `${shots}/report.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('tr[data-entry="1.1"]')).toContainText(value("1.1"));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${shots}/report-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function standing(pid: string): Promise<string> {
  const result = await e2eDb().query(`SELECT m.status FROM "StudyMember" m JOIN "User" u ON u.id = m."userId" WHERE m."studyId" = $1 AND u."externalId" = $2`, [
    study!.id,
    pid,
  ]);
  return result.rows[0]?.status;
}

test("the study's owner publishes on Prolific, and approves, rejects and pays bonuses by the study's rules", async ({ browser }) => {
  test.setTimeout(240_000);
  study = await prolificStudy();
  const staff = await browser.newContext({ storageState: storageStatePath("researcher"), viewport: { width: 1280, height: 800 } });
  const page = await staff.newPage();
  await page.goto(`/research/studies/${study.slug}/participants`);
  const card = page.getByTestId("prolific-card");

  // the token: stored, then only its last four characters
  await card.getByRole("textbox", { name: /^Token/ }).fill(standIn.token);
  await card.getByRole("button", { name: "Store token" }).click();
  await expect(card.getByTestId("prolific-token-last4")).toContainText(standIn.token.slice(-4));
  await expect(page.locator("body")).not.toContainText(standIn.token);

  // the draft: places from the planner (4 items x 3 answers / 4 per person = 3)
  await expect(card.getByRole("textbox", { name: /^Places/ })).toHaveValue("3");
  await card.getByRole("textbox", { name: /^Description \(shown on Prolific\)/ }).fill("Put pictures of household tasks in order. About ten minutes.");
  await card.getByRole("textbox", { name: /^Pay per hour \(pence or cents\)/ }).fill("1200");
  await card.getByRole("textbox", { name: /^Estimated minutes/ }).fill("10");
  await card.getByRole("button", { name: "Create draft" }).click();
  await expect(card.getByTestId("prolific-status")).toHaveText("UNPUBLISHED");
  const [remote] = [...standIn.studies.values()];
  expect(remote.body).toMatchObject({ total_available_places: 3, reward: 200, estimated_completion_time: 10 });
  expect(String(remote.body.external_study_url)).toContain(
    `/join/${study.entryToken}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`,
  );
  await card.getByRole("button", { name: "Publish" }).click();
  await expect(card.getByTestId("prolific-status")).toHaveText("ACTIVE");
  await page.screenshot({ path: `${shots}/published.png`, fullPage: true });

  // three participants through the link
  const people = [0, 1, 2].map(() => randomBytes(12).toString("hex"));
  const submissions = people.map((pid) => standIn.addSubmission(remote.id, pid));
  await participate(browser, people[0], remote.id, submissions[0].id);
  await participate(browser, people[1], remote.id, submissions[1].id, { failGold: true });
  await participate(browser, people[2], remote.id, submissions[2].id, { stopAfter: 1 });
  expect(await standing(people[0])).toBe("COMPLETE");
  expect(await standing(people[1])).toBe("EXCLUDED");
  expect(await standing(people[2])).toBe("ACTIVE");

  // the third returns on Prolific: the signed hook frees the place at once
  standIn.setStatus(submissions[0].id, "AWAITING REVIEW");
  standIn.setStatus(submissions[1].id, "AWAITING REVIEW");
  await card.getByRole("button", { name: "Sync now" }).click();
  await expect(card).toContainText("Synced 3 submissions");
  standIn.setStatus(submissions[2].id, "RETURNED");
  expect((await standIn.sendHook(submissions[2].id, { secret: "forged" })).status).toBe(401);
  expect(await standing(people[2])).toBe("ACTIVE");
  expect((await standIn.sendHook(submissions[2].id)).status).toBe(200);
  expect(await standing(people[2])).toBe("RETURNED");
  await page.reload();
  await expect(card).toContainText("(place freed)");

  // approve by the rules: the one who completed
  const batch = card.getByRole("region", { name: "Batch action" });
  await card.getByRole("combobox", { name: /^Action/ }).selectOption("approve");
  await card.getByRole("button", { name: "Preview" }).click();
  const preview = card.getByTestId("prolific-preview");
  await expect(preview).toContainText(people[0]);
  await expect(preview).not.toContainText(people[1]);
  await card.getByRole("button", { name: "Confirm approve of 1" }).click();
  await expect(card).toContainText("Done: approve for 1 submission");
  expect(standIn.submissions.get(submissions[0].id)!.status).toBe("APPROVED");

  // reject by the rules: the one who failed the attention check
  await card.getByRole("combobox", { name: /^Action/ }).selectOption("reject");
  await card.getByRole("combobox", { name: /^Rejection category/ }).selectOption("FAILED_CHECK");
  await card.getByRole("textbox", { name: /^Message to the participant/ }).fill(REJECT_MESSAGE);
  await card.getByRole("button", { name: "Preview" }).click();
  await expect(preview).toContainText(people[1]);
  await card.getByRole("button", { name: "Confirm reject of 1" }).click();
  await expect(card).toContainText("Done: reject for 1 submission");
  expect(standIn.submissions.get(submissions[1].id)).toMatchObject({ status: "REJECTED", rejection: { category: "FAILED_CHECK" } });

  // a bonus per correct answer: previewed with its amount, paid once
  await card.getByRole("combobox", { name: /^Action/ }).selectOption("bonus");
  await card.getByRole("textbox", { name: /^Per correct answer \(pence or cents\)/ }).fill("10");
  await card.getByRole("button", { name: "Preview" }).click();
  await expect(preview).toContainText(people[0]);
  await expect(preview).toContainText("Total: 0.30");
  await page.screenshot({ path: `${shots}/bonus-preview.png`, fullPage: true });
  await card.getByRole("button", { name: "Confirm bonus of 1" }).click();
  await expect(card).toContainText("Done: bonus for 1 submission");
  expect(standIn.payments).toEqual([{ bulkId: expect.any(String), total_amount: 30 }]);
  await expect(batch).toBeVisible();

  await readReport(page, study.slug, {
    reward: Number(remote.body.reward),
    minutes: Number(remote.body.estimated_completion_time),
    paid: standIn.payments[0].total_amount,
  });
  await page.goto(`/research/studies/${study.slug}/participants`);

  // a phone's width: the card fits, its tables scroll in their own boxes
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  // visible, not only in the streamed markup: the loading skeleton is gone, the page is laid out
  await expect(card.getByTestId("prolific-status")).toBeVisible();
  await expect(card.getByTestId("prolific-status")).toHaveText("ACTIVE");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${shots}/phone.png`, fullPage: true });
  await staff.close();
});
