import { test, expect, type Page } from "@playwright/test";
import { createEnactStudy, deleteStudy, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb } from "./db";
import { AnnotatePage } from "./pages/annotate-page";
import { storageStatePath } from "./users";

/**
 * The Content-Security-Policy (proxy.ts, lib/security/headers.ts) blocks nothing the app itself
 * needs: pages render and hydrate with only nonced scripts, and the browser reports no violation,
 * while a script without the nonce is refused.
 */

let studies: FixtureStudy[] = [];
test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

/** Collects the page's CSP violations (the securitypolicyviolation event), from the first byte on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`));
  });
  const console: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) console.push(message.text());
  });
  return async () => [...console, ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []))];
}

test.describe("the Content-Security-Policy", () => {
  test("an annotator's pages work and hydrate under it, with no violation", async ({ browser }) => {
    const study = await createEnactStudy({ items: [{ kind: "enact-inverse", steps: 4 }], members: ["annotator"] });
    studies.push(study);
    const context = await browser.newContext({ storageState: storageStatePath("annotator") });
    const page = await context.newPage();
    const violations = await watchViolations(page);
    await page.goto("/studies");
    await page.goto(`/s/${study.slug}`);
    const annotate = new AnnotatePage(page);
    await annotate.open(study.slug);
    await annotate.fillOrder(study.items[0].order, "keyboard");
    await annotate.setConfidence(3);
    await annotate.submit(); // needs hydrated React: clicks, keyboard, fetch
    await expect(page).toHaveURL(/\/done$/);
    expect(await violations()).toEqual([]);
    await context.close();
  });

  test("a researcher's dashboard (charts with inline styles) and the admin pages show no violation", async ({ browser }) => {
    const study = await createEnactStudy({ items: [{ kind: "enact-forward", steps: 3 }], members: ["annotator"] });
    studies.push(study);
    for (const [user, paths] of [
      ["researcher", ["/research", `/research/studies/${study.slug}/dashboard`, `/research/studies/${study.slug}`, `/research/studies/${study.slug}/exports`]],
      ["admin", ["/admin/users", "/admin/import"]],
    ] as const) {
      const context = await browser.newContext({ storageState: storageStatePath(user) });
      const page = await context.newPage();
      const violations = await watchViolations(page);
      for (const path of paths) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBeLessThan(400);
        await page.waitForLoadState("networkidle");
      }
      expect(await violations(), user).toEqual([]);
      await context.close();
    }
  });

  test("refuses inline event handlers and parser-inserted scripts without the nonce", async ({ page }) => {
    const violations = await watchViolations(page);
    await page.goto("/signin");
    const ran = await page.evaluate(async () => {
      const flags = window as unknown as { handler?: boolean; written?: boolean };
      // markup an attacker got into the page: an inline handler ...
      document.body.insertAdjacentHTML("beforeend", '<img src="/no-such-image.png" onerror="window.handler = true">');
      // ... a parser-inserted script (in a frame of the same page, written as HTML) ...
      const frame = document.createElement("iframe");
      document.body.appendChild(frame);
      frame.contentDocument!.open();
      frame.contentDocument!.write("<script>parent.written = true<\/script>");
      frame.contentDocument!.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { handler: flags.handler === true, written: flags.written === true };
    });
    expect(ran).toEqual({ handler: false, written: false });
    expect((await violations()).some((v) => v.startsWith("script-src"))).toBe(true);
  });
});
