import { randomBytes } from "node:crypto";
import { test, expect, type Page } from "@playwright/test";
import { createEnactStudy, deleteStudy, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import { storageStatePath } from "./users";

/**
 * The pages that tell a participant to write to the research team name whom: the
 * researcher sets the contact on Settings (also once the study has answers), and the link that
 * does not work, the study's pages and the end of a participation name it with a mailto: link;
 * without one they point to the platform's messages. Screenshots at 1280x800 and 390x844.
 */

const shots = process.env.OPSENTRY_SHOTS ?? "test-results/contact";
const sizes = [
  { name: "1280", viewport: { width: 1280, height: 800 } },
  { name: "390", viewport: { width: 390, height: 844 } },
] as const;
let studies: FixtureStudy[] = [];

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

async function linkedStudy() {
  const study = await createEnactStudy({
    items: [
      { kind: "enact-forward", steps: 3 },
      { kind: "enact-inverse", steps: 3 },
    ],
    completionCode: null,
    title: "Ordering household steps",
  });
  studies.push(study);
  const entryToken = randomBytes(18).toString("base64url");
  await e2eDb().query(
    `UPDATE "Study" SET "entryToken" = $2, "consentMarkdown" = '# Taking part' || chr(10) || chr(10) || 'You put pictures in order.', "consentVersion" = 1 WHERE id = $1`,
    [study.id, entryToken],
  );
  return { ...study, entryToken };
}

async function shoot(page: Page, name: string) {
  for (const size of sizes) {
    await page.setViewportSize(size.viewport);
    await page.screenshot({ path: `${shots}/${name}-${size.name}.png`, fullPage: true });
  }
  await page.setViewportSize(sizes[0].viewport);
}

test("the researcher names the contact on a study with answers; the participant's pages name it, with a mailto: link", async ({ browser }) => {
  test.setTimeout(120_000);
  const study = await linkedStudy();
  const db = e2eDb();
  // answers exist: the settings are frozen, the contact is not
  const [item] = study.items;
  const annotator = (await db.query(`SELECT id FROM "User" WHERE email = 'annotator@e2e.test'`)).rows[0].id as string;
  await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") VALUES ($1, $2)`, [study.id, annotator]);
  const assignment = `as_${randomBytes(8).toString("hex")}`;
  await db.query(`INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", position, status) VALUES ($1, $2, $3, $4, 0, 'SUBMITTED')`, [
    assignment,
    study.id,
    item.id,
    annotator,
  ]);
  await db.query(
    `INSERT INTO "Response" (id, "assignmentId", "clientId", answer, "confidenceRaw", confidence, "wallMs", "activeMs", score, correct) VALUES ($1, $2, $3, '{"order":[0,1,2]}', 3, 0.5, 1000, 1000, '{}', true)`,
    [`re_${randomBytes(8).toString("hex")}`, assignment, randomBytes(8).toString("hex")],
  );

  const researcher = await browser.newContext({ storageState: storageStatePath("researcher"), viewport: sizes[0].viewport });
  const staff = await researcher.newPage();
  await staff.goto(`/research/studies/${study.slug}/settings`);
  await expect(staff.getByTestId("frozen-note")).toBeVisible();
  const form = staff.getByTestId("contact-form");
  await form.getByLabel("Name or team").fill("Ana Ruiz, Embodied AI Lab");
  await form.getByLabel("Email address").fill("ana at lab");
  await form.getByRole("button", { name: "Save contact" }).click();
  await expect(form.getByText("not an email address")).toBeVisible();
  await form.getByLabel("Email address").fill("ana.ruiz@lab.example.org");
  await form.getByRole("button", { name: "Save contact" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved.");
  expect((await db.query(`SELECT "contactName", "contactEmail" FROM "Study" WHERE id = $1`, [study.id])).rows[0]).toEqual({
    contactName: "Ana Ruiz, Embodied AI Lab",
    contactEmail: "ana.ruiz@lab.example.org",
  });
  await staff.getByTestId("contact-form").scrollIntoViewIfNeeded();
  await shoot(staff, "settings-contact");
  await researcher.close();

  const participant = await browser.newContext({ viewport: sizes[0].viewport });
  const page = await participant.newPage();
  const mailto = `mailto:ana.ruiz@lab.example.org?subject=${encodeURIComponent(study.title)}`;

  // a link without the participant's id: what is wrong, and whom to write to
  await page.goto(`/join/${study.entryToken}?STUDY_ID=${randomBytes(12).toString("hex")}&SESSION_ID=${randomBytes(12).toString("hex")}`);
  const problem = page.getByTestId("join-problem");
  await expect(problem).toContainText("PROLIFIC_PID");
  await expect(problem.getByTestId("team-contact")).toHaveText("write to Ana Ruiz, Embodied AI Lab (ana.ruiz@lab.example.org)");
  await expect(problem.getByRole("link", { name: /ana\.ruiz@lab\.example\.org/ })).toHaveAttribute("href", `mailto:ana.ruiz@lab.example.org`);
  await shoot(page, "join-problem-contact");

  // in: the consent page and the study's page name the contact
  const pid = `lab-${randomBytes(4).toString("hex")}`;
  await page.goto(`/join/${study.entryToken}?pid=${pid}`);
  await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/consent$`), { timeout: 20_000 });
  await expect(page.getByTestId("study-contact").getByRole("link")).toHaveAttribute("href", mailto);
  await shoot(page, "consent-contact");
  await page.getByLabel("I have read the text above and agree to take part.").check();
  await page.getByRole("button", { name: "I agree: continue" }).click();
  await expect(page).toHaveURL(new RegExp(`/s/${study.slug}$`));
  await expect(page.getByTestId("study-contact")).toContainText(
    "Questions about this study? Please write to Ana Ruiz, Embodied AI Lab (ana.ruiz@lab.example.org).",
  );
  await shoot(page, "study-home-contact");
  for (const [path, name] of [
    ["withdraw", "withdraw-contact"],
    ["done", "done-contact"],
  ] as const) {
    await page.goto(`/s/${study.slug}/${path}`);
    await expect(page.getByTestId("study-contact").getByRole("link")).toHaveAttribute("href", mailto);
    await shoot(page, name);
  }

  // returned by the researcher: the ended page says whom to write to if it is a mistake
  await db.query(
    `UPDATE "StudyMember" m SET status = 'RETURNED', "statusReason" = 'returned on Prolific', "statusAt" = now() FROM "User" u WHERE u.id = m."userId" AND m."studyId" = $1 AND u."externalId" = $2`,
    [study.id, pid],
  );
  await page.goto(`/s/${study.slug}/work`);
  await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/ended$`));
  const ended = page.getByTestId("ended-contact");
  await expect(ended).toHaveText("If you think this is a mistake, please write to Ana Ruiz, Embodied AI Lab (ana.ruiz@lab.example.org).");
  await expect(ended.getByRole("link")).toHaveAttribute("href", mailto);
  await shoot(page, "ended-contact");
  await participant.close();
});

test("without a contact the pages point to the platform's messages, and name no one", async ({ browser }) => {
  const study = await linkedStudy();
  const participant = await browser.newContext({ viewport: sizes[0].viewport });
  const page = await participant.newPage();
  const pid = `lab-${randomBytes(4).toString("hex")}`;
  await page.goto(`/join/${study.entryToken}?pid=${pid}`);
  await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/consent$`), { timeout: 20_000 });
  await expect(page.getByTestId("study-contact")).toHaveCount(0);
  await e2eDb().query(
    `UPDATE "StudyMember" m SET status = 'RETURNED', "statusAt" = now() FROM "User" u WHERE u.id = m."userId" AND m."studyId" = $1 AND u."externalId" = $2`,
    [study.id, pid],
  );
  await page.goto(`/s/${study.slug}/ended`);
  await expect(page.getByTestId("ended-contact").getByTestId("team-contact")).toHaveAttribute("data-contact", "none");
  await expect(page.getByTestId("ended-contact")).toContainText("on Prolific: Messages");
  await shoot(page, "ended-no-contact");
  // a link that matches no study cannot name one
  await page.goto(`/join/not-a-real-token-0000?pid=${pid}`);
  await expect(page.getByTestId("join-problem").getByTestId("team-contact")).toHaveAttribute("data-contact", "none");
  await participant.close();
});
