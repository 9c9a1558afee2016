import { randomUUID } from "node:crypto";
import { test, expect, type Page, type Response as PlaywrightResponse } from "@playwright/test";
import { taskKinds } from "../lib/tasks";
import { createKindStudy } from "./kind-fixtures";
import { assignmentsOf, createEnactStudy, deleteStudy, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb } from "./db";
import { AnnotatePage, tabWriterOf } from "./pages/annotate-page";
import { storageStatePath } from "./users";

/**
 * What an annotator may receive: never the answer key (except, after submitting a practice item,
 * that item's right order), never another annotator's work, only the images of their studies.
 */

let studies: FixtureStudy[] = [];
test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

/** An order as it would appear in JSON or in React's flight payload. */
function orderPatterns(order: number[]): string[] {
  return [JSON.stringify(order), `[${order.join(", ")}]`];
}

test.describe("the answer key never reaches an annotator's browser", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("walking every page and API response of a study", async ({ page }) => {
    const study = await createEnactStudy({
      items: [
        { kind: "enact-forward", steps: 3, practice: true },
        { kind: "enact-forward", steps: 6 }, // key order [4, 2, 3, 0, 1]
        { kind: "enact-inverse", steps: 7 }, // key order [5, 3, 0, 2, 4, 1]
      ],
      members: ["annotator"],
    });
    studies.push(study);
    const mainItems = study.items.filter((item) => !item.practice);
    for (const item of mainItems) expect(item.order.length).toBeGreaterThanOrEqual(5); // long enough not to appear by chance

    const bodies: Array<{ url: string; body: string; before: Set<string> }> = [];
    const submittedItems = new Set<string>();
    const pending: Array<Promise<void>> = [];
    page.on("response", (response: PlaywrightResponse) => {
      const type = response.headers()["content-type"] ?? "";
      if (!/json|html|text|x-component/.test(type)) return;
      const snapshot = new Set(submittedItems);
      pending.push(
        response
          .text()
          .then((body) => void bodies.push({ url: response.url(), body, before: snapshot }))
          .catch(() => undefined),
      );
    });

    await page.goto("/studies");
    await page.goto(`/s/${study.slug}`);
    await page.getByRole("link", { name: /Start/ }).click();
    const annotate = new AnnotatePage(page);
    for (let n = 0; n < 3; n++) {
      await annotate.waitForItem();
      const assignmentId = await annotate.assignmentId();
      // the item's API view too, as the browser could ask for it
      const api = await page.request.get(`/api/annotate/assignments/${assignmentId}`);
      expect(api.status()).toBe(200);
      bodies.push({ url: api.url(), body: await api.text(), before: new Set(submittedItems) });
      const length = await annotate.stepCount();
      // a wrong order on purpose (the reverse of the identity is never one of these keys)
      const reversed = Array.from({ length }, (_, i) => length - 1 - i);
      await annotate.fillOrder(reversed, "keyboard");
      await annotate.setConfidence(3);
      const itemId = (await assignmentsOf(study.id, "annotator")).find((a) => a.id === assignmentId)!.itemId;
      submittedItems.add(itemId);
      await annotate.submit();
      if ((await annotate.feedback.count()) > 0) await annotate.continueAfterFeedback();
    }
    await expect(page).toHaveURL(/\/done$/);
    await page.goto(`/s/${study.slug}`);
    await page.goto("/studies");
    const list = await page.request.get("/api/annotate/studies");
    bodies.push({ url: list.url(), body: await list.text(), before: new Set(submittedItems) });
    const next = await page.request.get(`/api/annotate/studies/${study.slug}/next`);
    bodies.push({ url: next.url(), body: await next.text(), before: new Set(submittedItems) });
    await Promise.all(pending);

    expect(bodies.length).toBeGreaterThan(10);
    expect(bodies.some((b) => b.url.includes("/next"))).toBe(true);
    const all = bodies.map((b) => b.body).join("\n");
    // the items did reach the browser (the check below looks at the right payloads) ...
    for (const item of study.items) expect(all).toContain(item.candidates[0]);
    // ... but no fact, change or hidden fact of any key, ever
    for (const item of study.items) for (const secret of item.secrets) expect(all, `key content of ${item.externalId}`).not.toContain(secret);
    expect(all).not.toContain("stepChanges");
    expect(all).not.toContain('"states"');
    // and no main item's order, before or after it was answered (practice orders are shown after submitting)
    for (const item of mainItems) for (const pattern of orderPatterns(item.order)) expect(all, `order of ${item.externalId}`).not.toContain(pattern);
  });
});

/** Every body of the kinds the check reads (JSON, HTML, text, React's flight payload) the page receives, from now on. */
function recordBodies(page: Page): { bodies: Array<{ url: string; body: string }>; settle: () => Promise<void> } {
  const bodies: Array<{ url: string; body: string }> = [];
  const pending: Array<Promise<void>> = [];
  page.on("response", (response: PlaywrightResponse) => {
    const type = response.headers()["content-type"] ?? "";
    if (!/json|html|text|x-component/.test(type)) return;
    pending.push(
      response
        .text()
        .then((body) => void bodies.push({ url: response.url(), body }))
        .catch(() => undefined),
    );
  });
  return { bodies, settle: async () => void (await Promise.all(pending)) };
}

test.describe("the answer key of every registered task kind never reaches an annotator's browser", () => {
  test.use({ storageState: storageStatePath("annotator") });

  // the registry (lib/tasks/index.ts), so a new kind is covered at once; its fixture lives in e2e/kind-fixtures.ts
  for (const kind of taskKinds) {
    test(`${kind}: the work page, its flight data and every annotator API response`, async ({ page }) => {
      const tag = `KeyLeak${kind.replace(/[^a-z]/g, "")}${randomUUID().slice(0, 6)}`;
      const created = await createKindStudy(kind, tag, ["annotator"]);
      studies.push({ id: created.id, slug: created.slug, title: "", items: [] });
      const { fixture } = created;
      const { bodies, settle } = recordBodies(page);

      await page.goto(`/s/${created.slug}/work`);
      await expect(page.getByText(fixture.shown).first()).toBeVisible({ timeout: 20_000 });
      const api = page.request;
      const next = await api.get(`/api/annotate/studies/${created.slug}/next`);
      expect(next.status()).toBe(200);
      const nextBody = await next.text();
      bodies.push({ url: next.url(), body: nextBody });
      const assignmentId = (JSON.parse(nextBody) as { assignment: { assignmentId: string } }).assignment.assignmentId;
      const view = await api.get(`/api/annotate/assignments/${assignmentId}`);
      bodies.push({ url: view.url(), body: await view.text() });
      // the page claimed the item for its tab (lib/responses/writer.ts): the API calls write as that tab
      const writer = await tabWriterOf(page);
      let seq = 0;
      if (fixture.play) {
        const start = await api.get(`/api/annotate/assignments/${assignmentId}/play`);
        expect(start.status()).toBe(200);
        bodies.push({ url: start.url(), body: await start.text() });
        for (const action of fixture.play) {
          const step = await api.post(`/api/annotate/assignments/${assignmentId}/play`, { data: { seq: ++seq, action } });
          expect(step.status(), await step.text()).toBe(200);
          bodies.push({ url: step.url(), body: await step.text() });
        }
      }
      const submitted = await api.post("/api/annotate/responses", {
        data: { assignmentId, writer, clientId: randomUUID(), answer: fixture.answer, confidence: 3, wallMs: 5000, activeMs: 4000, submitSeq: 0 },
      });
      bodies.push({ url: submitted.url(), body: await submitted.text() });
      expect(submitted.status(), await submitted.text()).toBe(200);
      // after answering: the done page and the study list
      await page.goto(`/s/${created.slug}`);
      await page.goto("/studies");
      await settle();

      const all = bodies.map((b) => b.body).join("\n");
      expect(
        bodies.some((b) => b.url.includes("/work")),
        "the work page was read",
      ).toBe(true);
      expect(all, "the item reached the browser").toContain(fixture.shown);
      for (const secret of fixture.secrets) {
        const found = bodies.find((b) => b.body.includes(secret));
        expect(found, `key content ${JSON.stringify(secret)} of ${kind} reached the browser in ${found?.url}`).toBeUndefined();
      }
      for (const pattern of fixture.forbidden ?? []) {
        const found = bodies.find((b) => b.body.includes(pattern));
        expect(found, `${JSON.stringify(pattern)} (the key of ${kind}) reached the browser in ${found?.url}`).toBeUndefined();
      }
    });
  }
});

test.describe("annotators only see their own work", () => {
  test("403 for another annotator's assignment and for a study one is not a member of; images only of one's studies", async ({ browser }) => {
    const study = await createEnactStudy({ items: [{ kind: "enact-forward", steps: 4 }], members: ["annotator"] });
    studies.push(study);
    const owner = await browser.newContext({ storageState: storageStatePath("annotator") });
    const outsider = await browser.newContext({ storageState: storageStatePath("annotator2") });
    try {
      const mine = await owner.newPage();
      const annotate = new AnnotatePage(mine);
      await annotate.open(study.slug);
      const assignmentId = await annotate.assignmentId();
      const image = study.items[0].candidates[0];
      const asset = await owner.request.get(image);
      expect(asset.status()).toBe(200);
      expect(asset.headers()["cache-control"]).toBe("private, max-age=31536000, immutable");
      expect(asset.headers()["etag"]).toBe(`"${image.split("/").pop()}"`);
      const revalidated = await owner.request.get(image, { headers: { "if-none-match": asset.headers()["etag"] } });
      expect(revalidated.status()).toBe(304);

      const other = outsider.request;
      expect((await other.get(`/api/annotate/assignments/${assignmentId}`)).status()).toBe(403);
      expect((await other.get(`/api/annotate/studies/${study.slug}/next`)).status()).toBe(403);
      const events = await other.post("/api/annotate/events", {
        data: { events: [{ assignmentId, seq: 999, type: "page_hidden", payload: {}, clientTime: Date.now() }] },
      });
      expect(events.status()).toBe(403);
      const response = await other.post("/api/annotate/responses", {
        data: {
          assignmentId,
          clientId: "8d2b7c1e-6a55-4b2b-8d0f-8a8f5e5b2c99",
          answer: { order: [0, 1, 2] },
          confidence: 3,
          wallMs: 1,
          activeMs: 1,
          submitSeq: 0,
        },
      });
      expect(response.status()).toBe(403);
      expect((await other.get(image)).status()).toBe(404);
      const page = await outsider.newPage();
      const visit = await page.goto(`/s/${study.slug}`);
      expect(visit?.status()).toBe(403);
      // signed out: 401
      const anonymous = await browser.newContext();
      expect((await anonymous.request.get(`/api/annotate/assignments/${assignmentId}`)).status()).toBe(401);
      expect((await anonymous.request.get(image)).status()).toBe(401);
      await anonymous.close();
    } finally {
      await owner.close();
      await outsider.close();
    }
  });

  test("the events endpoint takes a sendBeacon body (text/plain) and stores each seq once", async ({ browser }) => {
    const study = await createEnactStudy({ items: [{ kind: "enact-inverse", steps: 3 }], members: ["annotator"] });
    studies.push(study);
    const context = await browser.newContext({ storageState: storageStatePath("annotator") });
    try {
      const page = await context.newPage();
      const annotate = new AnnotatePage(page);
      await annotate.open(study.slug);
      await annotate.waitUntilSynced();
      const assignmentId = await annotate.assignmentId();
      const writer = await tabWriterOf(page);
      const status = await page.evaluate(
        async ({ id, writer }) => {
          const body = JSON.stringify({ events: [{ assignmentId: id, writer, seq: 500, type: "page_hidden", payload: {}, clientTime: Date.now() }] });
          const beacon = navigator.sendBeacon("/api/annotate/events", body);
          // the same event again, with a malformed one: the valid one is acknowledged, the other refused alone
          const mixed = JSON.stringify({
            events: [JSON.parse(body).events[0], { assignmentId: id, writer, seq: 501, type: "no_such_event", payload: {}, clientTime: Date.now() }],
          });
          const again = await fetch("/api/annotate/events", { method: "POST", headers: { "content-type": "text/plain;charset=UTF-8" }, body: mixed });
          return { beacon, status: again.status, json: await again.json() };
        },
        { id: assignmentId, writer },
      );
      expect(status.beacon).toBe(true);
      expect(status.status).toBe(200);
      expect(status.json).toMatchObject({ acked: { [assignmentId]: [500] }, rejected: [{ index: 1, assignmentId, seq: 501 }] });
      const { e2eDb } = await import("./db");
      await expect
        .poll(async () => (await e2eDb().query(`SELECT count(*)::int AS n FROM "Event" WHERE "assignmentId" = $1 AND seq = 500`, [assignmentId])).rows[0].n)
        .toBe(1);
    } finally {
      await context.close();
    }
  });
});
